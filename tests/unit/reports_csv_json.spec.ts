/**
 * CSV (app/reports/renderers/csv.ts) parsed back with csv-parse: the default header and rows,
 * Jmix CSV templates (header lines, alias line, detected separator), delimiter and BOM options,
 * formula escaping, the streamed size limit, 10,000 rows. JSON (json.ts): the raw band tree.
 */
import { test } from '@japa/runner'
import { parse } from 'csv-parse/sync'
import { renderCsv } from '../../app/reports/renderers/csv.js'
import { renderJson } from '../../app/reports/renderers/json.js'
import { valueFormatter } from '../../app/reports/format.js'
import { band, bodyOf, layout, makeJob, ordersTree } from './reports_helpers.js'

const csvJob = (over: Parameters<typeof makeJob>[0] = {}) =>
  makeJob({ ...over, template: { outputType: 'CSV', ...over.template } })

const csvOf = async (job: ReturnType<typeof makeJob>, opts = {}) =>
  parse((await bodyOf(await renderCsv(job))).toString('utf8'), { bom: true, ...opts }) as string[][]

test.group('reports csv', () => {
  test('without a template: the first band’s layout fields, then its rows, streamed', async ({
    assert,
  }) => {
    const value = valueFormatter([{ name: 'total', format: '#,##0.00' }], {})
    const result = await renderCsv(csvJob({ value }))
    assert.property(result, 'stream')
    const bytes = await bodyOf(result)
    assert.include(bytes.toString(), '\r\n')
    assert.deepEqual(parse(bytes) as string[][], [
      ['number', 'customer', 'total'],
      ['ORD-1', 'Customer 1', '10.50'],
      ['ORD-2', 'Customer 2', '21.00'],
    ])
  })

  test('a Jmix CSV template: header lines, the alias line’s columns and separator', async ({
    assert,
  }) => {
    const content = Buffer.from('Order;Who;"Sum; EUR"\n${number};${customer};${total}\n')
    const rows = await csvOf(csvJob({ content, template: { fileName: 't.csv' } }), {
      delimiter: ';',
    })
    assert.deepEqual(rows, [
      ['Order', 'Who', 'Sum; EUR'],
      ['ORD-1', 'Customer 1', '10.5'],
      ['ORD-2', 'Customer 2', '21'],
    ])
  })

  test('with a template every first-level band gives rows; Root aliases repeat', async ({
    assert,
  }) => {
    const root = band(
      'Root',
      { title: 'Q1' },
      {
        A: [band('A', { x: 'a1' })],
        B: [band('B', { x: 'b1' }), band('B', { x: 'b2' })],
      }
    )
    const content = Buffer.from('${x},${Root.title}')
    const job = csvJob({
      content,
      root,
      layout: [layout('A', ['x']), layout('B', ['x'])],
      template: { fileName: 't.csv' },
    })
    assert.deepEqual(await csvOf(job), [
      ['a1', 'Q1'],
      ['b1', 'Q1'],
      ['b2', 'Q1'],
    ])
  })

  test('delimiter and BOM options; quotes doubled (RFC 4180)', async ({ assert }) => {
    const root = band(
      'Root',
      {},
      { Orders: [band('Orders', { number: 'say "hi"', customer: 'a;b', total: 1 })] }
    )
    const job = csvJob({ root, template: { options: { delimiter: ';', bom: true } } })
    const text = (await bodyOf(await renderCsv(job))).toString('utf8')
    assert.isTrue(text.startsWith('\uFEFFnumber;customer;total\r\n'))
    assert.include(text, '"say ""hi""";"a;b";1')
    assert.deepEqual(await csvOf(job, { delimiter: ';' }), [
      ['number', 'customer', 'total'],
      ['say "hi"', 'a;b', '1'],
    ])
  })

  test('formula cells are escaped; negative numbers stay numbers', async ({ assert }) => {
    const root = band(
      'Root',
      {},
      {
        Orders: [
          band('Orders', {
            number: '=HYPERLINK("http://evil","x")',
            customer: '@SUM(1)',
            total: -5,
          }),
          band('Orders', { number: '+1', customer: '-2+3', total: -1234.5 }),
        ],
      }
    )
    const value = valueFormatter([{ name: 'total', format: '#,##0.00' }], {
      Orders: { total: 'decimal' },
    })
    const rows = await csvOf(csvJob({ root, value }))
    assert.deepEqual(rows.slice(1), [
      ['\'=HYPERLINK("http://evil","x")', "'@SUM(1)", '-5.00'],
      ["'+1", "'-2+3", '-1,234.50'],
    ])
  })

  test('past the size limit the stream fails with 413', async ({ assert }) => {
    const job = csvJob({ ...ordersTree(5000), maxOutputBytes: 10_000 })
    const error = await bodyOf(await renderCsv(job)).catch((e) => e)
    assert.equal(error.status, 413)
  })

  test('10,000 rows stream in full', async ({ assert }) => {
    const t = performance.now()
    const rows = await csvOf(csvJob(ordersTree(10000)))
    console.log(`      csv: 10,000 rows ${(performance.now() - t).toFixed(0)} ms (render + parse)`)
    assert.lengthOf(rows, 10001)
    assert.deepEqual(rows[10000], ['ORD-10000', 'Customer 10000', '105000'])
  })

  test('a template without an alias line answers 400', async ({ assert }) => {
    const error = await renderCsv(
      csvJob({ content: Buffer.from('a,b\n'), template: { fileName: 't.csv' } })
    ).catch((e) => e)
    assert.equal(error.status, 400)
  })
})

test.group('reports json', () => {
  test('the band tree with raw values, unformatted', async ({ assert }) => {
    const value = valueFormatter([{ name: 'total', format: '#,##0.00' }], {})
    const body = await bodyOf(
      await renderJson(makeJob({ value, template: { outputType: 'JSON' } }))
    )
    const tree = JSON.parse(body.toString('utf8'))
    assert.deepEqual(tree.Root.fields, { title: 'Quarter 1' })
    assert.deepEqual(tree.Root.bands.Orders[1].fields, {
      number: 'ORD-2',
      customer: 'Customer 2',
      total: 21,
    })
    assert.deepEqual(tree.Root.bands.Orders[0].bands.Items[1], {
      fields: { product: 'P1-2', qty: 2 },
      bands: {},
    })
    const limited = await renderJson(
      makeJob({ maxOutputBytes: 10, template: { outputType: 'JSON' } })
    ).catch((e) => e)
    assert.equal(limited.status, 413)
  })
})
