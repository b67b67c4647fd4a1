import { describe, expect, it } from 'vitest'
import type { ModelEntity } from '../../../lib/model'
import {
  FormValueError,
  toForm,
  writeBody,
  type ChildForm,
  type FormContext,
} from '../api/form_values'
import { formatCell } from '../api/format'
import type { EntityRow } from '../api/schema'

const order: ModelEntity = {
  name: 'shop_Order',
  traits: ['versioned'],
  attributes: [
    { name: 'number', type: 'string', mandatory: true },
    { name: 'amount', type: 'decimal', scale: 2 },
    { name: 'meta', type: 'json' },
    { name: 'paid', type: 'boolean' },
    { name: 'customer', type: 'association', cardinality: 'MANY_TO_ONE', target: 'shop_Customer' },
    {
      name: 'lines',
      type: 'composition',
      cardinality: 'ONE_TO_MANY',
      target: 'shop_Line',
      mappedBy: 'order',
    },
    { name: 'total', type: 'decimal', transient: true },
  ],
}
const line: ModelEntity = {
  name: 'shop_Line',
  attributes: [
    { name: 'order', type: 'association', cardinality: 'MANY_TO_ONE', target: 'shop_Order' },
    { name: 'qty', type: 'int' },
  ],
}
const ctx: FormContext = {
  byName: new Map([order, line].map((e) => [e.name, e])),
  caption: (_e, a) => a,
}

const row: EntityRow = {
  _entityName: 'shop_Order',
  id: 'o1',
  version: 4,
  number: 'A-1',
  amount: 12.5,
  meta: { a: 1 },
  customer: { _entityName: 'shop_Customer', id: 'c1', _instanceName: 'Acme' },
  lines: [{ _entityName: 'shop_Line', id: 'l1', qty: 2 }],
}

describe('form values', () => {
  it('reads a row into form values: decimals with their scale, JSON as text, children without the back reference', () => {
    const values = toForm(order, row, ctx)
    expect(values.amount).toBe('12.50')
    expect(values.meta).toBe('{\n  "a": 1\n}')
    expect(values.paid).toBeNull()
    expect(values.customer).toEqual({ id: 'c1', _instanceName: 'Acme' })
    expect('total' in values).toBe(false)
    const lines = values.lines as ChildForm[]
    expect(lines[0]).toMatchObject({ id: 'l1', values: { qty: '2' } })
    expect('order' in lines[0]!.values).toBe(false)
  })

  it('updates send only what changed, with the version read; compositions as the whole list', () => {
    const original = toForm(order, row, ctx)
    const edited = { ...original, number: 'A-2', customer: { id: 'c2', _instanceName: 'Globex' } }
    expect(writeBody(order, edited, { values: original, version: 4 }, ctx)).toEqual({
      number: 'A-2',
      customer: { id: 'c2' },
      version: 4,
    })
    const lines = original.lines as ChildForm[]
    const more = { ...original, lines: [...lines, { key: 'n', values: { qty: '5' } }] }
    expect(writeBody(order, more, { values: original, version: 4 }, ctx)).toEqual({
      lines: [{ id: 'l1', qty: 2 }, { qty: 5 }],
      version: 4,
    })
  })

  it('creates send the values given; bad numbers and JSON are refused at their path before sending', () => {
    const values = {
      ...toForm(order, null, ctx),
      number: 'N-1',
      amount: '3.10',
      meta: '{"x": true}',
    }
    expect(writeBody(order, values, null, ctx)).toEqual({
      number: 'N-1',
      amount: '3.10',
      meta: { x: true },
    })
    expect(() => writeBody(order, { ...values, meta: '{nope' }, null, ctx)).toThrow(FormValueError)
    try {
      writeBody(order, { ...values, lines: [{ key: 'k', values: { qty: 'x' } }] }, null, ctx)
    } catch (e) {
      expect((e as FormValueError).path).toBe('lines[0].qty')
    }
  })

  it('formats cells: references by instance name, enum captions, decimals with their scale', () => {
    const enums = [{ name: 'E', values: [{ name: 'PAID', id: 'P', caption: { en: 'Paid' } }] }]
    expect(formatCell(order.attributes[4]!, row.customer, []).text).toBe('Acme')
    expect(formatCell({ name: 's', type: 'enum', enum: 'E' }, 'PAID', enums).text).toBe('Paid')
    expect(formatCell(order.attributes[1]!, 7, []).text).toBe('7.00')
    expect(formatCell(order.attributes[1]!, null, []).muted).toBe(true)
    expect(
      formatCell({ name: 'f', type: 'file' }, 'fs://2024/01/01/x.pdf?name=Invoice%201.pdf', []).text
    ).toBe('Invoice 1.pdf')
  })
})
