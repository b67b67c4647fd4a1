import { describe, expect, it } from 'vitest'
import type { ModelEntity } from '../../../lib/model'
import { fillPattern, patternPaths, renderPattern } from './instance_name'
import { asRequestPlan, toggleProperty } from './fetch_plan'
import { cleanForType, toDefinition } from './attribute_types'

const entities: ModelEntity[] = [
  {
    name: 'shop_Order',
    attributes: [
      { name: 'number', type: 'string' },
      { name: 'status', type: 'enum', enum: 'shop.Status' },
      {
        name: 'customer',
        type: 'association',
        cardinality: 'MANY_TO_ONE',
        target: 'shop_Customer',
      },
      {
        name: 'lines',
        type: 'composition',
        cardinality: 'ONE_TO_MANY',
        target: 'shop_Line',
        mappedBy: 'order',
      },
    ],
  },
  { name: 'shop_Customer', attributes: [{ name: 'name', type: 'string' }] },
  {
    name: 'shop_Line',
    attributes: [
      { name: 'book', type: 'association', cardinality: 'MANY_TO_ONE', target: 'shop_Customer' },
    ],
  },
]
const enums = [{ name: 'shop.Status', values: [{ name: 'NEW', id: 'N', caption: { en: 'New' } }] }]

describe('instance-name preview', () => {
  it('renders patterns as the server does: paths, enum captions, empty parts without brackets', () => {
    const row = { number: 'A-1', status: 'NEW', customer: { _instanceName: 'Ada', name: 'Ada' } }
    const ctx = { entities, enums }
    expect(renderPattern(ctx, 'shop_Order', '{number} ({customer.name}) {status}', row)).toBe(
      'A-1 (Ada) New'
    )
    expect(renderPattern(ctx, 'shop_Order', '{number} ({customer})', row)).toBe('A-1 (Ada)')
    expect(renderPattern(ctx, 'shop_Order', 'number', row)).toBe('A-1')
    expect(renderPattern(ctx, 'shop_Order', '{number} ({customer.name})', { number: 'A-2' })).toBe(
      'A-2'
    )
    expect(renderPattern(ctx, 'shop_Order', '{nope}', row)).toBeNull()
    expect(fillPattern(['', ', ', ''], ['Street', ''])).toBe('Street')
    expect(patternPaths('{number} ({customer.name})')).toEqual(['number', 'customer.name'])
  })
})

describe('fetch plan helpers', () => {
  it('gives bare relations the target _base in the preview plan (named-plan meaning)', () => {
    const plan = {
      extends: '_local',
      properties: ['number', 'customer', { name: 'lines', fetchPlan: { properties: ['book'] } }],
    }
    expect(asRequestPlan(plan, 'shop_Order', entities)).toEqual({
      extends: '_local',
      properties: [
        'number',
        { name: 'customer', fetchPlan: '_base' },
        { name: 'lines', fetchPlan: { properties: [{ name: 'book', fetchPlan: '_base' }] } },
      ],
    })
  })

  it('adds a ticked property at its attribute position', () => {
    expect(
      toggleProperty(['number', 'lines'], 'status', true, ['number', 'status', 'customer', 'lines'])
    ).toEqual(['number', 'status', 'lines'])
    expect(toggleProperty(['number', 'lines'], 'lines', false, [])).toEqual(['number'])
  })
})

describe('attribute definition', () => {
  it('keeps only the keys the type takes, and leaves defaults out', () => {
    expect(cleanForType({ name: 'a', type: 'int', length: 20, pattern: 'x', min: 1 })).toEqual({
      name: 'a',
      type: 'int',
      min: 1,
    })
    expect(
      toDefinition({
        name: 'c',
        type: 'association',
        target: 'shop_Customer',
        cardinality: 'ONE_TO_MANY',
        mappedBy: 'x',
        mandatory: true,
        unique: false,
        caption: { en: '', de: 'K' },
      })
    ).toEqual({
      name: 'c',
      type: 'association',
      target: 'shop_Customer',
      cardinality: 'ONE_TO_MANY',
      mappedBy: 'x',
      caption: { de: 'K' },
    })
  })
})
