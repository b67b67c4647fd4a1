/**
 * The demo application's reports (database/demo/bookstore.json `reports`; README "Reports
 * API"), run with the demo client's token through plain HTTP exactly as the README's curl
 * examples do, and each document opened with an independent reader.
 */
import { randomUUID } from 'node:crypto'
import { test } from '@japa/runner'
import ExcelJS from 'exceljs'
import mammoth from 'mammoth'
import { parse as parseHtml } from 'node-html-parser'
import { parse as parseCsv } from 'csv-parse/sync'
import { resetDatabase } from '#tests/helpers/database'
import { engine, importDoc } from '#tests/helpers/engine'
import { baseUrl } from '#tests/helpers/oauth'
import { demoDocument } from '#tests/helpers/openapi'
import { UnconstrainedDataManager } from '#engine/data/data_manager'
import { importDemoData } from '#database/demo/bookstore_data'
import { pdfPages } from '../unit/reports_helpers.js'

const IDS = {
  orders: '0d5e7a52-2b53-4c1e-9a31-7d0c1b2a1001',
  letter: '0d5e7a52-2b53-4c1e-9a31-7d0c1b2a1002',
  books: '0d5e7a52-2b53-4c1e-9a31-7d0c1b2a1003',
}
let token = ''

/** curl -s -H "Authorization: Bearer $TOKEN" [-H 'Content-Type: application/json' -d BODY] URL */
async function curl(path: string, body?: unknown) {
  const response = await fetch(`${baseUrl()}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      Authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const bytes = Buffer.from(await response.arrayBuffer())
  return { status: response.status, headers: response.headers, bytes, text: bytes.toString('utf8') }
}

const json = async (path: string) => JSON.parse((await curl(path)).text)

test.group('Reports API: the demo application reports', (group) => {
  group.setup(async () => {
    await resetDatabase()
    const result = await importDoc(await demoDocument())
    if (result.status !== 'applied') throw new Error(JSON.stringify(result.problems))
    const e = await engine()
    await importDemoData(
      new UnconstrainedDataManager({
        db: e.db,
        model: e.model,
        subject: {
          kind: 'client',
          clientId: 'demo',
          resourceRoles: [],
          rowLevelRoles: [],
          tokenId: '',
        },
        maxFetchSize: 10000,
        maxBulkSize: 10000,
        securityTokens: false,
        caption: (key) => key,
      }),
      async (name) => `fs://2026/11/25/${randomUUID()}.svg?name=${name}`
    )
    const secret = result.secrets!.find((s) => s.clientId === 'bookstore-demo')!.secret
    // curl -s -u bookstore-demo:<secret> -d grant_type=client_credentials .../oauth2/token
    const issued = await fetch(`${baseUrl()}/oauth2/token`, {
      method: 'POST',
      headers: {
        'Authorization': `Basic ${Buffer.from(`bookstore-demo:${secret}`).toString('base64')}`,
        'Content-Type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials',
    })
    token = (await issued.json()).access_token
  })

  test('the demo client lists the three demo reports', async ({ assert }) => {
    const list = await json('/rest/reports/report')
    assert.sameMembers(
      list.map((r: any) => r.code),
      ['orders-with-lines', 'customer-letter', 'books-by-genre']
    )
  })

  test('Orders with lines: an XLSX with every order and its lines under it', async ({ assert }) => {
    const response = await curl(`/rest/reports/run/${IDS.orders}`, {})
    assert.equal(response.status, 200, response.text)
    assert.equal(response.headers.get('content-disposition'), 'inline; filename="orders.xlsx"')
    const orders = await json(
      '/rest/entities/bookstore_Order?sort=number&fetchPlan=_base&limit=1000'
    )
    const lines = await json('/rest/entities/bookstore_OrderLine?limit=10000')
    const wb = new ExcelJS.Workbook()
    await wb.xlsx.load(response.bytes as any)
    const ws = wb.getWorksheet('Orders')!
    assert.equal(ws.getCell('A4').value, orders[0].number)
    // Every order row, followed by its lines: orders + lines rows from row 4 on.
    const numbers: string[] = []
    for (let r = 4; r < 4 + orders.length + lines.length; r++) {
      const value = ws.getCell(`A${r}`).value
      if (value) numbers.push(String(value))
    }
    assert.deepEqual(
      numbers,
      orders.map((o: any) => o.number)
    )
    const sumRow = 4 + orders.length + lines.length + 1
    const sum = ws.getCell(`E${sumRow}`).value as any
    assert.equal(sum.formula, `SUM(E4:E${sumRow - 2})`)
    const csv = await curl(`/rest/reports/run/${IDS.orders}`, { template: 'csv' })
    assert.equal(csv.headers.get('content-type'), 'application/csv')
    const rows = parseCsv(csv.text, { columns: true, bom: true })
    assert.deepEqual(
      rows.map((r: any) => r.number),
      orders.map((o: any) => o.number)
    )
  })

  test('Customer letter: a DOCX letter to the customer with their orders', async ({ assert }) => {
    const [customer] = await json('/rest/entities/bookstore_Customer?sort=name&limit=1')
    const filter = JSON.stringify({
      conditions: [{ property: 'customer', operator: '=', value: customer.id }],
    })
    const orders = await json(
      `/rest/entities/bookstore_Order/search?filter=${encodeURIComponent(filter)}`
    )
    const response = await curl(`/rest/reports/run/${IDS.letter}`, {
      parameters: [{ name: 'customer', value: customer.id }],
    })
    assert.equal(response.status, 200, response.text)
    assert.equal(
      response.headers.get('content-type'),
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document'
    )
    assert.equal(
      response.headers.get('content-disposition'),
      `inline; filename="${encodeURIComponent(`Letter to ${customer.name}.docx`).replace(/%20/g, '+')}"`
    )
    const { value: text } = await mammoth.extractRawText({ buffer: response.bytes })
    assert.include(text, `Dear ${customer.name},`)
    for (const order of orders) assert.include(text, order.number)
    assert.notInclude(text, '${')
    assert.notInclude(text, '##band')
  })

  test('Books by genre: HTML and PDF with the genre parameter and value formats', async ({
    assert,
  }) => {
    const filter = JSON.stringify({
      conditions: [{ property: 'genre', operator: '=', value: 'SCIENCE' }],
    })
    const books = await json(
      `/rest/entities/bookstore_Book/search?filter=${encodeURIComponent(filter)}&sort=price`
    )
    assert.isAbove(books.length, 0)
    const body = { parameters: [{ name: 'genre', value: 'SCIENCE' }] }
    const html = await curl(`/rest/reports/run/${IDS.books}`, body)
    assert.equal(html.status, 200, html.text)
    assert.equal(html.headers.get('content-disposition'), 'inline; filename="books-SCIENCE.html"')
    const tree = await curl(`/rest/reports/run/${IDS.books}`, { ...body, template: 'json' })
    const first = JSON.parse(tree.text).Root.bands.Books[0].fields
    assert.containsSubset(first, {
      title: books[0].title,
      publicationDate: books[0].publicationDate,
      price: books[0].price,
    })
    const rows = parseHtml(html.text).querySelectorAll('tbody tr')
    assert.deepEqual(
      rows.map((r) => r.querySelectorAll('td')[0].text),
      books
        .map((b: any) => b.title.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;'))
        .map((t: string) => parseHtml(t).text)
    )
    assert.match(rows[0].querySelectorAll('td')[3].text, /^\d{1,3}(,\d{3})*\.\d{2}$/)
    const pdf = await curl(`/rest/reports/run/${IDS.books}`, { ...body, template: 'pdf' })
    assert.equal(pdf.status, 200, pdf.text)
    assert.equal(pdf.headers.get('content-type'), 'application/pdf')
    const text = (await pdfPages(pdf.bytes)).join(' ')
    assert.include(text, 'Books in SCIENCE')
    assert.include(text.replace(/\s+/g, ' '), books[0].title.replace(/\s+/g, ' '))
  })
})
