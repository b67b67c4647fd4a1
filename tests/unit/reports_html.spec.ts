/**
 * HTML (app/reports/renderers/html.ts): Handlebars over Jmix's `Root.bands.X[i].fields.y` model
 * with formatted values and escaping, the default document without a template, template errors
 * as 400, and the known Handlebars attack probes rendering nothing harmful. Output parsed with
 * node-html-parser.
 */
import { test } from '@japa/runner'
import { parse } from 'node-html-parser'
import { renderHtml } from '../../app/reports/renderers/html.js'
import { valueFormatter } from '../../app/reports/format.js'
import { ReportError } from '../../app/reports/types.js'
import { band, bodyOf, makeJob } from './reports_helpers.js'

const hbs = (source: string, over = {}) =>
  makeJob({
    content: Buffer.from(source),
    template: { outputType: 'HTML', fileName: 't.html' },
    ...over,
  })

const render = async (job: ReturnType<typeof makeJob>) =>
  (await bodyOf(await renderHtml(job))).toString('utf8')

test.group('reports html: templates', () => {
  test('the Jmix model: Root fields, bands, nested bands, formatted values', async ({ assert }) => {
    const source = `<h1>{{Root.fields.title}}</h1><ul>{{#each Root.bands.Orders}}<li data-n="{{fields.number}}">{{fields.customer}}: {{fields.total}}<ol>{{#each bands.Items}}<li>{{fields.product}} x{{fields.qty}}</li>{{/each}}</ol></li>{{/each}}</ul><p id="first">{{Root.bands.Orders.[0].fields.number}}</p>`
    const value = valueFormatter([{ name: 'Orders.total', format: '#,##0.00' }], {})
    const doc = parse(await render(hbs(source, { value })))
    assert.equal(doc.querySelector('h1')!.text, 'Quarter 1')
    const orders = doc.querySelectorAll('ul > li')
    assert.deepEqual(
      orders.map((li) => li.getAttribute('data-n')),
      ['ORD-1', 'ORD-2']
    )
    assert.match(orders[1].text, /^Customer 2: 21\.00/)
    assert.deepEqual(
      orders[0].querySelectorAll('ol li').map((li) => li.text),
      ['P1-1 x1', 'P1-2 x2']
    )
    assert.equal(doc.querySelector('#first')!.text, 'ORD-1')
  })

  test('values are HTML-escaped unless the template asks for raw output', async ({ assert }) => {
    const root = band('Root', { x: '<script>alert(1)</script>&"' }, {})
    const html = await render(hbs('<p>{{Root.fields.x}}</p>', { root, layout: [] }))
    assert.equal(html, '<p>&lt;script&gt;alert(1)&lt;/script&gt;&amp;&quot;</p>')
    assert.notInclude(html, '<script>')
  })

  test('a compile or runtime error answers 400 with the message', async ({ assert }) => {
    const broken = await renderHtml(hbs('{{#each Root.bands.Orders}}')).catch((e) => e)
    assert.instanceOf(broken, ReportError)
    assert.equal(broken.status, 400)
    assert.match(broken.message, /^HTML template error: Parse error/)
    const partial = await renderHtml(hbs('{{> missing}}')).catch((e) => e)
    assert.equal(partial.status, 400)
    assert.match(partial.message, /missing/)
  })

  test('the output limit answers 413', async ({ assert }) => {
    const error = await renderHtml(
      hbs('{{#each Root.bands.Orders}}{{fields.number}}{{/each}}', { maxOutputBytes: 5 })
    ).catch((e) => e)
    assert.equal(error.status, 413)
  })
})

test.group('reports html: attack probes', () => {
  test('constructor, lookup, __proto__ and the classic RCE chain render nothing harmful', async ({
    assert,
  }) => {
    const rce = `{{#with "s" as |string|}}{{#with "e"}}{{#with split as |conslist|}}{{this.pop}}{{this.push (lookup string.sub "constructor")}}{{this.pop}}{{#with string.split as |codelist|}}{{this.pop}}{{this.push "return process.mainModule.require('child_process').execSync('id').toString();"}}{{this.pop}}{{#each conslist}}{{#with (string.sub.apply 0 codelist)}}{{this}}{{/with}}{{/each}}{{/with}}{{/with}}{{/with}}{{/with}}`
    const probes = [
      '[{{lookup this "constructor"}}]',
      '[{{lookup Root "__proto__"}}]',
      '[{{__proto__}}][{{Root.__proto__}}][{{Root.fields.constructor}}][{{Root.constructor.name}}]',
      `[${rce}]`,
    ]
    for (const probe of probes) {
      const html = await render(hbs(probe)).catch((e) => e)
      const text = typeof html === 'string' ? html : html.message
      assert.notMatch(text, /uid=|function|Object|\[object/, probe)
      if (typeof html === 'string') assert.match(html, /^(\[[\s,]*\])+$/, probe)
    }
    assert.isUndefined(({} as Record<string, unknown>).polluted)
  })

  test('{{constructor.constructor "..."}} is refused as an unknown helper, never run', async ({
    assert,
  }) => {
    const marker = `mg_probe_${Date.now()}`
    const error = await renderHtml(
      hbs(`{{constructor.constructor "globalThis.${marker} = 1"}}{{log "x"}}`)
    ).catch((e) => e)
    assert.instanceOf(error, ReportError)
    assert.equal(error.status, 400)
    assert.notProperty(globalThis, marker)
  })
})

test.group('reports html: default document', () => {
  test('title, parameters, one table per band, nested bands, escaped text, print CSS', async ({
    assert,
  }) => {
    const job = makeJob({ template: { outputType: 'HTML' } })
    job.root.fields.title = 'Q1 <b>'
    const html = await render(job)
    const doc = parse(html)
    assert.equal(doc.querySelector('title')!.text, 'Orders report')
    assert.equal(doc.querySelector('h1')!.text, 'Orders report')
    assert.include(doc.querySelector('table.params')!.text, 'Q1 <b>')
    assert.include(html, 'Q1 &lt;b&gt;')
    const orders = doc.querySelector('table.band-Orders')!
    assert.deepEqual(
      orders.querySelectorAll(':scope > thead th').map((th) => th.text),
      ['number', 'customer', 'total']
    )
    const items = orders.querySelectorAll('table.band-Items')
    assert.lengthOf(items, 2)
    assert.deepEqual(
      items[1].querySelectorAll('tbody td').map((td) => td.text),
      ['P2-1', '1', 'P2-2', '2']
    )
    assert.include(doc.querySelector('style')!.text, '@page')
  })
})
