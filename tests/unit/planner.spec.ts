import { test } from '@japa/runner'
import { Model } from '#engine/metadata/model'
import { normalizeModel } from '#engine/metadata/normalize'
import type { ModelDefinition } from '#engine/metadata/types'
import { physicalSchema } from '#engine/schema/physical'
import { planSchema } from '#engine/schema/planner'
import {
  NO_RENAMES,
  describeOperation,
  type Operation,
  type RenameHints,
} from '#engine/schema/operations'
import { entity, int, m2o, model, shop, str } from '#tests/unit/_fixtures'

function plan(before: ModelDefinition, after: ModelDefinition, hints: RenameHints = NO_RENAMES) {
  const current = physicalSchema(new Model(1, normalizeModel(before)))
  const wanted = physicalSchema(new Model(2, normalizeModel(after)))
  return planSchema(current, wanted, hints, { tables: new Set(current.keys()) })
}
const describe = (ops: Operation[]) => ops.map(describeOperation)
const EMPTY = model([])

/** The shop with one change applied to a deep copy. */
function changed(edit: (def: ModelDefinition) => void): ModelDefinition {
  const def = structuredClone(shop())
  edit(def)
  return def
}

test.group('planner', () => {
  test('identical models plan zero operations', ({ assert }) => {
    const result = plan(shop(), shop())
    assert.deepEqual(result.operations, [])
    assert.deepEqual(result.conflicts, [])
  })

  test('createTable orders referenced tables first, whatever the definition order', ({
    assert,
  }) => {
    const def = model([
      entity('shop_Line', [m2o('order', 'shop_Order'), m2o('product', 'shop_Product')]),
      entity('shop_Order', [m2o('customer', 'shop_Customer')]),
      entity('shop_Customer', [str('name')]),
      entity('shop_Product', [str('name')]),
    ])
    const tables = plan(EMPTY, def).operations.map((op) =>
      op.op === 'createTable' ? op.table.name : op.op
    )
    assert.deepEqual(tables.slice().sort(), [
      'shop_customer',
      'shop_line',
      'shop_order',
      'shop_product',
    ])
    const before = (a: string, b: string) =>
      assert.isBelow(tables.indexOf(a), tables.indexOf(b), `${a} before ${b}`)
    before('shop_customer', 'shop_order')
    before('shop_order', 'shop_line')
    before('shop_product', 'shop_line')
  })

  test('a link table is created after both of its tables', ({ assert }) => {
    const def = model([
      entity('shop_Item', [
        { name: 'tags', type: 'association', cardinality: 'MANY_TO_MANY', target: 'shop_Tag' },
      ]),
      entity('shop_Tag', [str('name')]),
    ])
    const tables = plan(EMPTY, def).operations.map((op) =>
      op.op === 'createTable' ? op.table.name : op.op
    )
    assert.lengthOf(tables, 3)
    assert.equal(tables[2], 'shop_item_tags_link')
  })

  test('adding attributes: addColumn, mandatory ones carry a needsValue risk', ({ assert }) => {
    const after = changed((d) =>
      d.entities[1].attributes.push(str('note'), int('priority', { mandatory: true }))
    )
    const ops = plan(shop(), after).operations
    assert.deepEqual(describe(ops), [
      'addColumn shop_order_line.note',
      'addColumn shop_order_line.priority',
    ])
    assert.isUndefined(ops[0].risks)
    assert.deepEqual(
      ops[1].risks?.map((r) => r.kind),
      ['needsValue']
    )
  })

  test('removing an attribute: dropColumn with a values risk on the old table', ({ assert }) => {
    const ops = plan(
      shop(),
      changed((d) => d.entities[1].attributes.splice(1, 1))
    ).operations
    assert.deepEqual(describe(ops), ['dropColumn shop_order_line.quantity'])
    assert.deepEqual(ops[0].risks, [
      {
        kind: 'values',
        table: 'shop_order_line',
        column: 'quantity',
        what: 'dropping column shop_order_line.quantity',
      },
    ])
  })

  test('removing a relation drops its column and its index', ({ assert }) => {
    const after = changed((d) => {
      d.entities[0].attributes.splice(1, 1)
      d.entities[1].attributes.splice(0, 1)
    })
    assert.sameMembers(describe(plan(shop(), after).operations), [
      'dropIndex ix_shop_order_line_order_id on shop_order_line',
      'dropColumn shop_order_line.order_id',
    ])
  })

  test('alterColumn risks: {what}')
    .with([
      {
        what: 'shorter string truncates',
        edit: (d: ModelDefinition) => (d.entities[0].attributes[0].length = 10),
        kinds: ['truncate'],
      },
      {
        what: 'longer string is safe',
        edit: (d: ModelDefinition) => (d.entities[0].attributes[0].length = 50),
        kinds: [],
      },
      {
        what: 'string to int converts',
        edit: (d: ModelDefinition) => (d.entities[0].attributes[0].type = 'int'),
        kinds: ['values'],
      },
      {
        what: 'making it optional is safe',
        edit: (d: ModelDefinition) => (d.entities[0].attributes[0].mandatory = false),
        kinds: [],
      },
      {
        what: 'int to long widens',
        edit: (d: ModelDefinition) => (d.entities[1].attributes[1].type = 'long'),
        kinds: [],
        table: 'shop_order_line',
      },
      {
        what: 'mandatory needs values',
        edit: (d: ModelDefinition) => (d.entities[1].attributes[1].mandatory = true),
        kinds: ['nulls'],
        table: 'shop_order_line',
      },
      {
        what: 'converted and mandatory',
        edit: (d: ModelDefinition) =>
          Object.assign(d.entities[1].attributes[1], { type: 'boolean', mandatory: true }),
        kinds: ['values', 'nulls'],
        table: 'shop_order_line',
      },
    ])
    .run(({ assert }, { edit, kinds, table }) => {
      const ops = plan(shop(), changed(edit)).operations
      const alter = ops.find((o) => o.op === 'alterColumn')
      assert.exists(alter, JSON.stringify(describe(ops)))
      assert.deepEqual(
        alter!.risks!.map((r) => r.kind),
        kinds
      )
      for (const risk of alter!.risks!) assert.equal(risk.table, table ?? 'shop_order')
    })

  test('truncate risk carries the new length', ({ assert }) => {
    const ops = plan(
      shop(),
      changed((d) => (d.entities[0].attributes[0].length = 10))
    ).operations
    assert.containsSubset(ops[0].risks, [
      { kind: 'truncate', table: 'shop_order', column: 'number', length: 10 },
    ])
  })

  test('rename hints give renameTable and renameColumn instead of drop and create', ({
    assert,
  }) => {
    const after = changed((d) => {
      d.entities[0].name = 'shop_PurchaseOrder'
      d.entities[0].attributes[0].name = 'code'
      d.entities[1].attributes[0].target = 'shop_PurchaseOrder'
    })
    const hints: RenameHints = {
      tables: new Map([['shop_purchase_order', 'shop_order']]),
      columns: new Map([['shop_purchase_order', new Map([['code', 'number']])]]),
    }
    const ops = plan(shop(), after, hints).operations
    const names = describe(ops)
    assert.include(names, 'renameTable shop_order -> shop_purchase_order')
    assert.include(names, 'renameColumn shop_purchase_order.number -> code')
    assert.notInclude(names.join(), 'dropTable')
    assert.notInclude(names.join(), 'createTable')
    assert.notInclude(names.join(), 'dropColumn')
    // The unique index is re-created under the new table name, after the old one was dropped.
    assert.isBelow(
      names.indexOf('dropIndex uq_shop_order_number on shop_order'),
      names.indexOf('createIndex uq_shop_purchase_order_code on shop_purchase_order')
    )
    assert.isBelow(
      names.indexOf('renameTable shop_order -> shop_purchase_order'),
      names.indexOf('renameColumn shop_purchase_order.number -> code')
    )
  })

  test('without hints, a renamed entity is a drop and a create', ({ assert }) => {
    const after = changed((d) => {
      d.entities[0].name = 'shop_PurchaseOrder'
      d.entities[1].attributes[0].target = 'shop_PurchaseOrder'
    })
    const ops = plan(shop(), after).operations
    assert.includeMembers(describe(ops), [
      'dropTable shop_order',
      'createTable shop_purchase_order',
    ])
    assert.deepEqual(
      ops.find((o) => o.op === 'dropTable')!.risks!.map((r) => r.kind),
      ['rows']
    )
  })

  test('declared indexes: createIndex and dropIndex; unique ones check duplicates', ({
    assert,
  }) => {
    const withIndex = changed(
      (d) =>
        (d.entities[1].indexes = [
          { attributes: ['quantity'] },
          { attributes: ['order', 'quantity'], unique: true },
        ])
    )
    const created = plan(shop(), withIndex).operations
    assert.deepEqual(describe(created), [
      'createIndex ix_shop_order_line_quantity on shop_order_line',
      'createIndex uq_shop_order_line_order_id_quantity on shop_order_line',
    ])
    assert.isUndefined(created[0].risks)
    assert.containsSubset(created[1].risks, [
      { kind: 'duplicates', table: 'shop_order_line', columns: ['order_id', 'quantity'] },
    ])
    assert.deepEqual(describe(plan(withIndex, shop()).operations), [
      'dropIndex ix_shop_order_line_quantity on shop_order_line',
      'dropIndex uq_shop_order_line_order_id_quantity on shop_order_line',
    ])
  })

  test('an entity table that already exists in the database is a conflict', ({ assert }) => {
    const wanted = physicalSchema(new Model(2, normalizeModel(shop())))
    const result = planSchema(new Map(), wanted, NO_RENAMES, { tables: new Set(['shop_order']) })
    assert.lengthOf(result.conflicts, 1)
    assert.match(result.conflicts[0], /shop_order/)
  })

  // The version column has DEFAULT 1: adding it to a table with rows is possible.
  test('adding the versioned trait needs no value (version has a default)', ({ assert }) => {
    const ops = plan(
      shop(),
      changed((d) => (d.entities[0].traits = ['versioned']))
    ).operations
    assert.deepEqual(describe(ops), ['addColumn shop_order.version'])
    assert.isUndefined(ops[0].risks)
  })

  test('a unique index over a renamed column checks duplicates under the old column name', ({
    assert,
  }) => {
    const before = changed((d) => d.entities[1].attributes.push(str('sku')))
    const after = changed((d) => d.entities[1].attributes.push(str('code', { unique: true })))
    const hints: RenameHints = {
      tables: new Map(),
      columns: new Map([['shop_order_line', new Map([['code', 'sku']])]]),
    }
    const create = plan(before, after, hints).operations.find(
      (o) => o.op === 'createIndex' && o.index.unique
    )
    assert.containsSubset(create?.risks, [
      { kind: 'duplicates', table: 'shop_order_line', columns: ['sku'] },
    ])
  })
})
