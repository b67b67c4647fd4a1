/**
 * PDF output. From an HTML template (or none): the HTML renderer's document printed by the
 * shared Chromium (browser.ts) in a fresh context per job with JavaScript off and every request
 * that is not `data:` aborted (no network: an `<img src="http://...">` is never fetched), A4,
 * backgrounds printed, a `page X / Y` footer. The run's signal closes the context (the render
 * stops). From a DOCX or XLSX template: that document converted by LibreOffice (office.ts).
 */
import type { BrowserContext } from 'playwright-core'
import { ReportError, type RenderJob, type RenderResult } from '../types.js'
import { sharedBrowser } from './browser.js'
import { abortError, checkAborted, sized } from './common.js'
import { htmlText } from './html.js'
import { convertWithOffice, officePath } from './office.js'
import { renderDocx } from './docx.js'
import { renderXlsx } from './xlsx.js'

const FOOTER =
  '<div style="width:100%;font-size:8px;color:#555;text-align:center;font-family:sans-serif;">' +
  '<span class="pageNumber"></span> / <span class="totalPages"></span></div>'

/** HTML (a whole document) -> PDF bytes through the shared Chromium. */
export async function htmlToPdf(html: string, signal: AbortSignal): Promise<Buffer> {
  checkAborted(signal)
  let context: BrowserContext | null = null
  // The abort answers at once, whatever Chromium is busy with (a page.pdf has no timeout of
  // its own); the context is closed behind it.
  let onAbort = () => {}
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(abortError(signal))
    signal.addEventListener('abort', onAbort, { once: true })
  })
  aborted.catch(() => {})
  const render = async () => {
    const browser = await sharedBrowser()
    checkAborted(signal)
    context = await browser.newContext({
      javaScriptEnabled: false,
      serviceWorkers: 'block',
      acceptDownloads: false,
      bypassCSP: false,
    })
    await context.route('**/*', (route) =>
      route.request().url().startsWith('data:') ? route.continue() : route.abort('blockedbyclient')
    )
    checkAborted(signal)
    const page = await context.newPage()
    await page.setContent(html, { waitUntil: 'load', timeout: 60_000 })
    checkAborted(signal)
    return page.pdf({
      format: 'A4',
      printBackground: true,
      displayHeaderFooter: true,
      headerTemplate: '<div></div>',
      footerTemplate: FOOTER,
      margin: { top: '14mm', bottom: '16mm', left: '12mm', right: '12mm' },
      preferCSSPageSize: false,
    })
  }
  const work = render()
  try {
    return await Promise.race([work, aborted])
  } catch (error) {
    if (signal.aborted) throw abortError(signal)
    if (error instanceof ReportError) throw error
    throw new ReportError(`PDF rendering failed: ${(error as Error).message.split('\n')[0]}`, 500)
  } finally {
    signal.removeEventListener('abort', onAbort)
    if (signal.aborted) {
      // The render may still be under way: close its context once it has one.
      work
        .catch(() => {})
        .finally(() => void (context as BrowserContext | null)?.close().catch(() => {}))
    } else await (context as BrowserContext | null)?.close().catch(() => {})
  }
}

/** PDF from an HTML template or none (Handlebars, then Chromium). */
export async function renderPdf(job: RenderJob): Promise<RenderResult> {
  const html = htmlText(job)
  return sized(await htmlToPdf(html, job.signal), job)
}

/** PDF from a DOCX template: the DOCX rendered, then converted by LibreOffice. */
export async function renderDocxPdf(job: RenderJob): Promise<RenderResult> {
  return officePdf(job, 'docx', renderDocx)
}

/** PDF from an XLSX template: the workbook rendered, then converted by LibreOffice. */
export async function renderXlsxPdf(job: RenderJob): Promise<RenderResult> {
  return officePdf(job, 'xlsx', renderXlsx)
}

async function officePdf(
  job: RenderJob,
  ext: 'docx' | 'xlsx',
  render: (job: RenderJob) => Promise<RenderResult>
): Promise<RenderResult> {
  // Refuse before rendering when LibreOffice is missing (the cheap, common case).
  if (!officePath()) throw new ReportError("Couldn't find LibreOffice instance", 500)
  const result = await render(job)
  const input = 'body' in result ? result.body : await collect(result.stream)
  return sized(await convertWithOffice(input, ext, job.signal), job)
}

async function collect(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk))
  return Buffer.concat(chunks)
}
