/**
 * PDF (app/reports/renderers/pdf.ts, browser.ts, office.ts): HTML printed by the shared Chromium
 * (text read back with pdfjs-dist), ~20 pages for 1,000 rows with cold and warm timings printed,
 * no network request from a template, abort, Chromium missing (503), LibreOffice missing (500).
 */
import { test } from '@japa/runner'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { existsSync } from 'node:fs'
import { browserRunning, closeBrowser } from '../../app/reports/renderers/browser.js'
import { renderDocxPdf, renderPdf, renderXlsxPdf } from '../../app/reports/renderers/pdf.js'
import { ReportError } from '../../app/reports/types.js'
import { bodyOf, docx, makeJob, ordersTree, para, pdfPages } from './reports_helpers.js'

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

async function withEnv<T>(
  vars: Record<string, string | undefined>,
  fn: () => Promise<T>
): Promise<T> {
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]))
  for (const [k, v] of Object.entries(vars)) {
    if (v === undefined) delete process.env[k]
    else process.env[k] = v
  }
  try {
    return await fn()
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k]
      else process.env[k] = v
    }
  }
}

test.group('reports pdf: Chromium', (group) => {
  group.each.skip(!existsSync(chromium), `Chromium not found at ${chromium}`)
  group.teardown(() => closeBrowser())

  test('the default document prints its values, with a page X / Y footer', async ({ assert }) => {
    const pages = await pdfPages(
      await bodyOf(await renderPdf(makeJob({ template: { outputType: 'PDF' } })))
    )
    assert.lengthOf(pages, 1)
    for (const text of [
      'Orders report',
      'Quarter 1',
      'ORD-1',
      'Customer 2',
      '21',
      'P2-2',
      '1 / 1',
    ]) {
      assert.include(pages[0], text)
    }
  }).timeout(60_000)

  test('1,000 rows give about 20 pages; cold and warm render times', async ({ assert }) => {
    await closeBrowser()
    const job = () => makeJob({ template: { outputType: 'PDF' }, ...ordersTree(1000) })
    let t = performance.now()
    const cold = await bodyOf(await renderPdf(job()))
    const coldMs = performance.now() - t
    t = performance.now()
    await renderPdf(job())
    const warmMs = performance.now() - t
    const pages = await pdfPages(cold)
    console.log(
      `      pdf: 1,000 rows -> ${pages.length} pages, cold ${coldMs.toFixed(0)} ms, warm ${warmMs.toFixed(0)} ms`
    )
    assert.isAtLeast(pages.length, 14)
    assert.isAtMost(pages.length, 30)
    assert.include(pages[0], 'ORD-1 ')
    assert.include(pages.at(-1)!, 'ORD-1000')
    assert.include(pages.at(-1)!, `${pages.length} / ${pages.length}`)
    // Table headers repeat on every page.
    assert.include(pages[5], 'customer')
  }).timeout(120_000)

  test('a template cannot reach the network (no request arrives)', async ({ assert }) => {
    const hits: string[] = []
    const server = createServer((req, res) => {
      hits.push(req.url ?? '')
      res.end('x')
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    try {
      const html = `<html><head><link rel="stylesheet" href="${base}/css"><style>@import url("${base}/import"); body{background:url(${base}/bg)}</style></head>
        <body><p>{{Root.fields.title}}</p><img src="${base}/img"><img src="http://127.0.0.1:9/x"><iframe src="${base}/frame"></iframe>
        <script src="${base}/js"></script><script>fetch("${base}/fetch")</script><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw="></body></html>`
      const job = makeJob({
        content: Buffer.from(html),
        template: { outputType: 'PDF', fileName: 't.html' },
      })
      const pages = await pdfPages(await bodyOf(await renderPdf(job)))
      assert.include(pages[0], 'Quarter 1')
      await new Promise((r) => setTimeout(r, 200))
      assert.deepEqual(hits, [])
    } finally {
      server.close()
    }
  }).timeout(60_000)

  test('an aborted run stops with the abort reason; the browser serves the next run', async ({
    assert,
  }) => {
    const controller = new AbortController()
    const job = makeJob({
      template: { outputType: 'PDF' },
      ...ordersTree(3000),
      signal: controller.signal,
    })
    const reason = new ReportError('time limit', 500)
    setTimeout(() => controller.abort(reason), 300)
    const error = await renderPdf(job).catch((e) => e)
    assert.strictEqual(error, reason)
    const pages = await pdfPages(
      await bodyOf(await renderPdf(makeJob({ template: { outputType: 'PDF' } })))
    )
    assert.include(pages[0], 'ORD-2')
  }).timeout(120_000)

  test('the output limit answers 413; closeBrowser stops the browser', async ({ assert }) => {
    const error = await renderPdf(
      makeJob({ template: { outputType: 'PDF' }, maxOutputBytes: 1000 })
    ).catch((e) => e)
    assert.equal(error.status, 413)
    assert.isTrue(browserRunning())
    await closeBrowser()
    assert.isFalse(browserRunning())
  }).timeout(60_000)
})

test.group('reports pdf: missing engines', (group) => {
  group.each.setup(() => closeBrowser())

  test('without Chromium a PDF run answers 503 with how to install it', async ({ assert }) => {
    const error = await withEnv({ CHROMIUM_PATH: '/nonexistent/chromium' }, () =>
      renderPdf(makeJob({ template: { outputType: 'PDF' } })).catch((e) => e)
    )
    assert.instanceOf(error, ReportError)
    assert.equal(error.status, 503)
    assert.equal(
      error.message,
      'PDF output needs Chromium: install it (apt-get install chromium) or set CHROMIUM_PATH'
    )
    assert.isFalse(browserRunning())
  })

  test('DOCX or XLSX to PDF without LibreOffice answers 500 as upstream', async ({ assert }) => {
    const docxJob = makeJob({
      content: docx(para('${Root.title}')),
      template: { outputType: 'PDF', fileName: 't.docx' },
    })
    for (const run of [
      () => renderDocxPdf(docxJob),
      () => renderXlsxPdf(makeJob({ template: { outputType: 'PDF', fileName: 't.xlsx' } })),
    ]) {
      for (const env of [
        { SOFFICE_PATH: undefined, PATH: '/nonexistent' },
        { SOFFICE_PATH: '/nonexistent/soffice' },
      ]) {
        const error = await withEnv(env, () => run().catch((e) => e))
        assert.instanceOf(error, ReportError)
        assert.equal(error.status, 500)
        assert.equal(error.message, "Couldn't find LibreOffice instance")
        assert.equal(error.error, 'Run report error')
      }
    }
  })
})
