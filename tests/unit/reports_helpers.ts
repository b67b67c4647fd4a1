/**
 * Builders and independent readers for the renderer tests: band trees, render jobs, a minimal
 * DOCX package written with pizzip, DOCX text through mammoth, PDF text through pdfjs-dist.
 */
import type { Readable } from 'node:stream'
import PizZip from 'pizzip'
import mammoth from 'mammoth'
import { valueFormatter } from '../../app/reports/format.js'
import type {
  BandInstance,
  BandLayout,
  RenderJob,
  RenderResult,
  ReportTemplate,
  ReportValue,
} from '../../app/reports/types.js'

export function band(
  name: string,
  fields: Record<string, ReportValue>,
  bands: Record<string, BandInstance[]> = {}
): BandInstance {
  return { name, fields, bands }
}

export function layout(name: string, fields: string[], children: BandLayout[] = []): BandLayout {
  return { name, orientation: 'HORIZONTAL', fields, children }
}

/** Orders (number, customer, total) with Items (product, qty) under each: `n` orders. */
export function ordersTree(n: number, itemsPer = 0): { root: BandInstance; layout: BandLayout[] } {
  const orders: BandInstance[] = []
  for (let i = 1; i <= n; i++) {
    const items: BandInstance[] = []
    for (let j = 1; j <= itemsPer; j++) items.push(band('Items', { product: `P${i}-${j}`, qty: j }))
    orders.push(
      band(
        'Orders',
        { number: `ORD-${i}`, customer: `Customer ${i}`, total: i * 10.5 },
        { Items: items }
      )
    )
  }
  return {
    root: band('Root', { title: 'Quarter 1' }, { Orders: orders }),
    layout: [
      layout('Orders', ['number', 'customer', 'total'], [layout('Items', ['product', 'qty'])]),
    ],
  }
}

export type JobOverrides = Omit<Partial<RenderJob>, 'template'> & {
  template?: Partial<ReportTemplate>
}

export function makeJob(over: JobOverrides = {}): RenderJob {
  const tree = ordersTree(2, 2)
  return {
    report: { id: 'r1', name: 'Orders report', code: 'orders' },
    root: tree.root,
    layout: tree.layout,
    value: valueFormatter([], {}),
    maxOutputBytes: 50 * 1024 * 1024,
    signal: new AbortController().signal,
    ...over,
    template: { code: 'DEFAULT', outputType: 'HTML', ...over.template },
  }
}

export async function bodyOf(result: RenderResult): Promise<Buffer> {
  if ('body' in result) return result.body
  return streamBytes(result.stream)
}

export async function streamBytes(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const c of stream) chunks.push(Buffer.isBuffer(c) ? c : Buffer.from(c))
  return Buffer.concat(chunks)
}

const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'

/**
 * A paragraph whose text is split into the given runs, as Word writes them: run properties,
 * revision ids, spell-check marks and a bookmark between the runs.
 */
export const para = (...runs: string[]) =>
  `<w:p w:rsidR="00B2" w:rsidRDefault="00B2"><w:pPr><w:spacing w:after="0"/></w:pPr>${runs
    .map(
      (r, i) =>
        `<w:r w:rsidRPr="00C${i}"><w:rPr><w:rFonts w:ascii="Calibri" w:hAnsi="Calibri"/><w:lang w:val="en-US"/></w:rPr><w:t xml:space="preserve">${r}</w:t></w:r>`
    )
    .join(
      '<w:proofErr w:type="spellStart"/><w:bookmarkStart w:id="0" w:name="_GoBack"/><w:bookmarkEnd w:id="0"/>'
    )}</w:p>`

/** A table row of cells; each cell holds one paragraph of the given runs. */
export const row = (...cells: string[][]) =>
  `<w:tr><w:trPr><w:cantSplit/></w:trPr>${cells.map((runs) => `<w:tc><w:tcPr><w:tcW w:w="2000" w:type="dxa"/></w:tcPr>${para(...runs)}</w:tc>`).join('')}</w:tr>`

export const table = (...rows: string[]) =>
  `<w:tbl><w:tblPr><w:tblW w:w="0" w:type="auto"/></w:tblPr><w:tblGrid><w:gridCol w:w="2000"/></w:tblGrid>${rows.join('')}</w:tbl>`

/** A minimal DOCX package with the given body XML. */
export function docx(body: string): Buffer {
  const zip = new PizZip()
  zip.file(
    '[Content_Types].xml',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>'
  )
  zip.file(
    '_rels/.rels',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>'
  )
  zip.file(
    'word/document.xml',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document ${W}><w:body>${body}<w:sectPr/></w:body></w:document>`
  )
  return zip.generate({ type: 'nodebuffer', compression: 'DEFLATE' })
}

/** The document's text as mammoth reads it: paragraphs separated by blank lines. */
export async function docxText(buffer: Buffer): Promise<string> {
  return (await mammoth.extractRawText({ buffer })).value
}

/** Non-empty text lines of a DOCX (table cells are paragraphs of their own). */
export async function docxLines(buffer: Buffer): Promise<string[]> {
  return (await docxText(buffer))
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
}

/** Text per page, read with pdfjs-dist (no poppler needed). */
export async function pdfPages(buffer: Buffer): Promise<string[]> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs')
  const doc = await pdfjs.getDocument({ data: new Uint8Array(buffer), useSystemFonts: false })
    .promise
  const pages: string[] = []
  for (let i = 1; i <= doc.numPages; i++) {
    const content = await (await doc.getPage(i)).getTextContent()
    pages.push(content.items.map((it) => ('str' in it ? it.str : '')).join(' '))
  }
  await doc.destroy()
  return pages
}
