/*
 * Builds the demo application's three report templates (an XLSX master-detail workbook, a DOCX
 * letter, an HTML page that also prints as PDF) and writes the `reports` key of
 * database/demo/bookstore.json with them embedded as `base64:...` (the definition format).
 *   node scripts/demo_reports.js
 * Re-run after changing a template; the rest of bookstore.json is left as it is.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import ExcelJS from 'exceljs'
import PizZip from 'pizzip'

const FILE = new URL('../database/demo/bookstore.json', import.meta.url)
const GROUP = { id: '0d5e7a52-2b53-4c1e-9a31-7d0c1b2a0001', title: 'Bookstore', code: 'bookstore' }

async function ordersWorkbook() {
  const wb = new ExcelJS.Workbook()
  const ws = wb.addWorksheet('Orders')
  ws.columns = [12, 34, 12, 14, 14, 14].map((width) => ({ width }))
  ws.getCell('A1').value = 'Orders with their lines'
  ws.getCell('A1').font = { bold: true, size: 14 }
  ws.getRow(3).values = [
    'Number',
    'Customer / book',
    'Date / qty',
    'Status / price',
    'Total',
    'Line total',
  ]
  ws.getRow(3).font = { bold: true }
  ws.getRow(4).values = ['${number}', '${customer.name}', '${date}', '${status}', '${total}']
  ws.getRow(4).font = { bold: true }
  ws.getRow(5).values = ['', '${book.title}', '${quantity}', '${unitPrice}', '', '${lineTotal}']
  ws.getCell('E4').numFmt = '#,##0.00'
  ws.getCell('D5').numFmt = '#,##0.00'
  ws.getCell('F5').numFmt = '#,##0.00'
  ws.getCell('D7').value = 'Sum of orders'
  ws.getCell('D7').font = { bold: true }
  ws.getCell('E7').value = { formula: 'SUM(E4:E5)' }
  ws.getCell('E7').numFmt = '#,##0.00'
  wb.definedNames.add("'Orders'!$A$4:$F$4", 'Orders')
  wb.definedNames.add("'Orders'!$A$5:$F$5", 'Lines')
  return Buffer.from(await wb.xlsx.writeBuffer())
}

const run = (text, bold = false) =>
  `<w:r>${bold ? '<w:rPr><w:b/></w:rPr>' : ''}<w:t xml:space="preserve">${text}</w:t></w:r>`
const paragraph = (text, bold) => `<w:p>${run(text, bold)}</w:p>`
const cell = (text, bold) =>
  `<w:tc><w:tcPr><w:tcW w:w="2200" w:type="dxa"/></w:tcPr>${paragraph(text, bold)}</w:tc>`
const row = (cells, bold) => `<w:tr>${cells.map((c) => cell(c, bold)).join('')}</w:tr>`

function letterDocument() {
  const table =
    '<w:tbl><w:tblPr><w:tblW w:w="0" w:type="auto"/>' +
    '<w:tblBorders><w:top w:val="single" w:sz="4"/><w:bottom w:val="single" w:sz="4"/>' +
    '<w:insideH w:val="single" w:sz="4"/></w:tblBorders></w:tblPr>' +
    row(['##band=Orders Order', 'Date', 'Status', 'Total'], true) +
    row(['${number}', '${date}', '${status}', '${total}']) +
    '</w:tbl>'
  const body = [
    paragraph('The Bookstore', true),
    paragraph('${Customer.name}'),
    paragraph('${Customer.email}'),
    paragraph(''),
    paragraph('Dear ${Customer.name},'),
    paragraph('thank you for shopping with us. These are your orders:'),
    table,
    paragraph(''),
    paragraph('Kind regards,'),
    paragraph('The Bookstore team'),
  ].join('')
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
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${body}<w:sectPr><w:pgSz w:w="11906" w:h="16838"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440"/></w:sectPr></w:body></w:document>`
  )
  return zip.generate({ type: 'nodebuffer', compression: 'DEFLATE' })
}

const BOOKS_HTML = `<!doctype html>
<html><head><meta charset="utf-8"><title>Books: {{Root.fields.genre}}</title>
<style>
  body { font-family: 'DejaVu Sans', Arial, sans-serif; font-size: 11pt; color: #1f2933; }
  h1 { font-size: 18pt; margin: 0 0 4pt; } p.sub { color: #52606d; margin: 0 0 12pt; }
  table { border-collapse: collapse; width: 100%; }
  th { text-align: left; border-bottom: 2px solid #1f2933; padding: 4pt; }
  td { border-bottom: 1px solid #cbd2d9; padding: 4pt; } td.num { text-align: right; }
  tr { page-break-inside: avoid; }
</style></head>
<body>
  <h1>Books in {{Root.fields.genre}}</h1>
  <p class="sub">{{Root.bands.Books.length}} titles, cheapest first</p>
  <table>
    <thead><tr><th>Title</th><th>Publisher</th><th>Published</th><th class="num">Price</th></tr></thead>
    <tbody>
    {{#each Root.bands.Books}}
      <tr><td>{{fields.title}}</td><td>{{fields.[publisher.name]}}</td><td>{{fields.publicationDate}}</td><td class="num">{{fields.price}}</td></tr>
    {{/each}}
    </tbody>
  </table>
</body></html>
`

const b64 = (bytes) => `base64:${Buffer.from(bytes).toString('base64')}`

async function reports() {
  return [
    {
      id: '0d5e7a52-2b53-4c1e-9a31-7d0c1b2a1001',
      name: 'Orders with lines',
      code: 'orders-with-lines',
      group: GROUP,
      description: 'Every order with its lines: an XLSX master-detail workbook',
      restAccess: true,
      bands: [
        {
          name: 'Orders',
          entity: 'bookstore_Order',
          sort: 'number',
          fields: ['number', 'customer.name', 'date', 'status', 'total'],
          children: [
            {
              name: 'Lines',
              entity: 'bookstore_OrderLine',
              filter: { conditions: [{ property: 'order', operator: '=', value: ':Orders.id' }] },
              sort: 'position',
              fields: ['book.title', 'quantity', 'unitPrice', 'lineTotal'],
            },
          ],
        },
      ],
      valueFormats: [{ name: 'Orders.date', format: 'dd.MM.yyyy' }],
      templates: [
        {
          code: 'DEFAULT',
          outputType: 'XLSX',
          default: true,
          fileName: 'orders.xlsx',
          file: b64(await ordersWorkbook()),
        },
        { code: 'csv', outputType: 'CSV', outputNamePattern: 'orders.csv' },
      ],
    },
    {
      id: '0d5e7a52-2b53-4c1e-9a31-7d0c1b2a1002',
      name: 'Customer letter',
      code: 'customer-letter',
      group: GROUP,
      description: 'A letter to one customer listing their orders (DOCX)',
      restAccess: true,
      inputParameters: [
        {
          name: 'Customer',
          alias: 'customer',
          type: 'ENTITY',
          entityMetaClass: 'bookstore_Customer',
          required: true,
        },
      ],
      bands: [
        { name: 'Customer', type: 'entity', parameter: 'customer', fields: ['name', 'email'] },
        {
          name: 'Orders',
          entity: 'bookstore_Order',
          filter: { conditions: [{ property: 'customer', operator: '=', value: ':customer' }] },
          sort: 'date',
          fields: ['number', 'date', 'status', 'total'],
        },
      ],
      valueFormats: [
        { name: 'Orders.date', format: 'dd.MM.yyyy' },
        { name: 'Orders.total', format: '#,##0.00' },
      ],
      templates: [
        {
          code: 'DEFAULT',
          outputType: 'DOCX',
          default: true,
          fileName: 'letter.docx',
          outputNamePattern: 'Letter to ${Customer.name}.docx',
          file: b64(letterDocument()),
        },
      ],
    },
    {
      id: '0d5e7a52-2b53-4c1e-9a31-7d0c1b2a1003',
      name: 'Books by genre',
      code: 'books-by-genre',
      group: GROUP,
      description: 'Books of one genre, cheapest first (HTML, or PDF through Chromium)',
      restAccess: true,
      inputParameters: [
        {
          name: 'Genre',
          alias: 'genre',
          type: 'ENUMERATION',
          enumerationClass: 'com.example.bookstore.Genre',
          required: true,
          defaultValue: 'FICTION',
        },
      ],
      bands: [
        {
          name: 'Books',
          entity: 'bookstore_Book',
          filter: { conditions: [{ property: 'genre', operator: '=', value: ':genre' }] },
          sort: 'price',
          fields: ['title', 'publisher.name', 'publicationDate', 'price'],
        },
      ],
      valueFormats: [
        { name: 'Books.price', format: '#,##0.00' },
        { name: 'Books.publicationDate', format: 'dd.MM.yyyy' },
      ],
      templates: [
        {
          code: 'DEFAULT',
          outputType: 'HTML',
          default: true,
          fileName: 'books.html',
          outputNamePattern: 'books-${Root.genre}',
          file: b64(BOOKS_HTML),
        },
        {
          code: 'pdf',
          outputType: 'PDF',
          fileName: 'books.html',
          outputNamePattern: 'books-${Root.genre}',
          file: b64(BOOKS_HTML),
        },
        { code: 'json', outputType: 'JSON', outputNamePattern: 'books-${Root.genre}' },
      ],
    },
  ]
}

const text = readFileSync(FILE, 'utf8')
const json = JSON.parse(text)
const lines = (await reports()).map((r) => `    ${JSON.stringify(r)}`).join(',\n')
const block = `"reports": [\n${lines}\n  ]`
let out
if (json.reports) out = text.replace(/"reports": \[[\s\S]*?\n {2}\]/, block)
else out = text.replace(/\n\}\s*$/, `,\n  ${block}\n}\n`)
writeFileSync(FILE, out)
JSON.parse(out)
console.log(`wrote ${(await reports()).length} reports into ${FILE.pathname}`)
