/**
 * Relation changes on tables with rows: MANY_TO_ONE (column + foreign key + index; retargeting),
 * MANY_TO_MANY (link table), ONE_TO_MANY via mappedBy (no column).
 */
import { test } from '@japa/runner'
import { randomUUID } from 'node:crypto'
import db from '@adonisjs/lucid/services/db'
import { dialect, resetDatabase } from '#tests/helpers/database'
import {
  applyDoc,
  columnNamesOf,
  columnOf,
  expectRefused,
  foreignKeysOf,
  indexesOf,
  insertRows,
  rowsOf,
  table,
  tuplesOf,
  valuesOf,
} from '#tests/helpers/engine'

type Attr = Record<string, unknown>
const customer = (...extra: Attr[]) => ({
  name: 'crm_Customer',
  attributes: [{ name: 'name', type: 'string', length: 50 }, ...extra],
})
const tag = { name: 'crm_Tag', attributes: [{ name: 'label', type: 'string', length: 50 }] }
const company = (idType = 'uuid') => ({
  name: 'crm_Company',
  idType,
  attributes: [{ name: 'name', type: 'string', length: 50 }],
})
const order = (...attributes: Attr[]) => ({
  name: 'crm_Order',
  attributes: [{ name: 'number', type: 'string', length: 20 }, ...attributes],
})
const toCustomer: Attr = {
  name: 'customer',
  type: 'association',
  cardinality: 'MANY_TO_ONE',
  target: 'crm_Customer',
}
const toCompany: Attr = { ...toCustomer, target: 'crm_Company' }
const toTags: Attr = {
  name: 'tags',
  type: 'association',
  cardinality: 'MANY_TO_MANY',
  target: 'crm_Tag',
}
const prune = (...entities: unknown[]) => ({ prune: true, entities })
const link = 'crm_order_tags_link'

/** crm_Customer, crm_Tag and crm_Order (with `attributes`), one row in each table. */
async function crm(...attributes: Attr[]) {
  await applyDoc({ entities: [customer(), tag, order(...attributes)] })
  const [c] = await insertRows('crm_customer', [{ name: 'Alice' }])
  const [t] = await insertRows('crm_tag', [{ label: 'vip' }])
  const [o] = await insertRows('crm_order', [{ number: 'A-1' }])
  return { c, t, o }
}

test.group('schema changes: relations', (group) => {
  group.each.setup(async () => void (await resetDatabase()))

  test('adding a MANY_TO_ONE adds a nullable column, a foreign key and an index', async ({
    assert,
  }) => {
    const { c, o } = await crm()

    await applyDoc({ entities: [order(toCustomer)] })

    const column = await columnOf('crm_order', 'customer_id')
    assert.isTrue(column.nullable)
    assert.equal(column.type, dialect() === 'pg' ? 'uuid' : 'char(36)')
    assert.deepEqual(await foreignKeysOf('crm_order'), [
      { column: 'customer_id', table: 'crm_customer', refColumn: 'id' },
    ])
    assert.deepEqual(await indexesOf('crm_order'), [
      { name: 'ix_crm_order_customer_id', columns: ['customer_id'], unique: false },
    ])
    assert.deepEqual(await tuplesOf('crm_order', ['id', 'number', 'customer_id']), [
      [o.id, 'A-1', null],
    ])
    await db.from('crm_order').where('id', o.id).update({ customer_id: c.id })
    await assert.rejects(() =>
      db.from('crm_order').where('id', o.id).update({ customer_id: randomUUID() })
    )
  })

  test('adding a mandatory MANY_TO_ONE to a table with rows is refused', async ({ assert }) => {
    await crm()

    await expectRefused(
      assert,
      { entities: [order({ ...toCustomer, mandatory: true })] },
      /adding mandatory column crm_order\.customer_id is impossible/,
      { allowDataLoss: true }
    )
  })

  test('removing a MANY_TO_ONE without values drops its column, foreign key and index', async ({
    assert,
  }) => {
    const { o } = await crm(toCustomer)

    await applyDoc(prune(customer(), tag, order()))

    assert.sameMembers(await columnNamesOf('crm_order'), ['id', 'number'])
    assert.deepEqual(await foreignKeysOf('crm_order'), [])
    assert.deepEqual(await indexesOf('crm_order'), [])
    assert.deepEqual(await tuplesOf('crm_order', ['id', 'number']), [[o.id, 'A-1']])
    assert.lengthOf(await rowsOf('crm_customer'), 1)
  })

  test('removing a MANY_TO_ONE that holds values is refused; allowed with allowDataLoss', async ({
    assert,
  }) => {
    const { c, o } = await crm(toCustomer)
    await db.from('crm_order').where('id', o.id).update({ customer_id: c.id })
    await insertRows('crm_order', [{ number: 'A-2' }])
    const doc = prune(customer(), tag, order())

    await expectRefused(
      assert,
      doc,
      /dropping column crm_order\.customer_id would lose the values of 1 row/
    )

    await applyDoc(doc, { allowDataLoss: true })
    assert.notInclude(await columnNamesOf('crm_order'), 'customer_id')
    assert.deepEqual(await foreignKeysOf('crm_order'), [])
    assert.deepEqual(await valuesOf('crm_order', 'number', 'number'), ['A-1', 'A-2'])
    // The customer can now be deleted: nothing references it any more.
    await db.from('crm_customer').where('id', c.id).delete()
  })

  for (const idType of ['uuid', 'string']) {
    test(`retargeting a MANY_TO_ONE with values to a ${idType}-id entity: refused, or cleared with allowDataLoss`, async ({
      assert,
    }) => {
      await applyDoc({ entities: [customer(), tag, company(idType), order(toCustomer)] })
      const [c] = await insertRows('crm_customer', [{ name: 'Alice' }])
      const [o] = await insertRows('crm_order', [{ number: 'A-1', customer_id: c.id }])
      const doc = { entities: [order(toCompany)] }

      await expectRefused(
        assert,
        doc,
        /changing crm_order\.customer_id to reference crm_company would lose the values of 1 row/
      )

      await applyDoc(doc, { allowDataLoss: true })
      assert.deepEqual(await foreignKeysOf('crm_order'), [
        { column: 'customer_id', table: 'crm_company', refColumn: 'id' },
      ])
      assert.deepEqual(await tuplesOf('crm_order', ['id', 'customer_id']), [[o.id, null]])
      const id = idType === 'uuid' ? randomUUID() : 'ACME'
      await db.table('crm_company').insert({ id, name: 'Acme' })
      await db.from('crm_order').where('id', o.id).update({ customer_id: id })
      await assert.rejects(() =>
        db.from('crm_order').where('id', o.id).update({ customer_id: c.id })
      )
    })
  }

  test('retargeting a mandatory MANY_TO_ONE on a table with rows is refused, even with allowDataLoss', async ({
    assert,
  }) => {
    await applyDoc({
      entities: [customer(), tag, company(), order({ ...toCustomer, mandatory: true })],
    })
    const [c] = await insertRows('crm_customer', [{ name: 'Alice' }])
    await insertRows('crm_order', [{ number: 'A-1', customer_id: c.id }])

    await expectRefused(
      assert,
      { entities: [order({ ...toCompany, mandatory: true })] },
      /retargeting mandatory relation column crm_order\.customer_id is impossible/,
      { allowDataLoss: true }
    )
  })

  test('adding a MANY_TO_MANY creates the link table; removing it drops the table', async ({
    assert,
  }) => {
    const { t, o } = await crm()

    await applyDoc({ entities: [order(toTags)] })

    assert.sameMembers(await columnNamesOf(link), ['crm_order_id', 'crm_tag_id'])
    const linkTable = await table(link)
    assert.isTrue(linkTable?.columns.every((col) => !col.nullable))
    assert.sameDeepMembers(await foreignKeysOf(link), [
      { column: 'crm_order_id', table: 'crm_order', refColumn: 'id' },
      { column: 'crm_tag_id', table: 'crm_tag', refColumn: 'id' },
    ])
    assert.deepInclude(await indexesOf(link), {
      name: 'ix_crm_order_tags_link_crm_tag_id',
      columns: ['crm_tag_id'],
      unique: false,
    })
    assert.sameMembers(await columnNamesOf('crm_order'), ['id', 'number'], 'no column on the owner')
    assert.lengthOf(await rowsOf('crm_order'), 1)
    await db.table(link).insert({ crm_order_id: o.id, crm_tag_id: t.id })
    await assert.rejects(() => db.table(link).insert({ crm_order_id: o.id, crm_tag_id: t.id }))
    await assert.rejects(() =>
      db.table(link).insert({ crm_order_id: o.id, crm_tag_id: randomUUID() })
    )

    await db.from(link).delete()
    await applyDoc(prune(customer(), tag, order()))
    assert.isNull(await table(link))
    assert.lengthOf(await rowsOf('crm_order'), 1)
    assert.lengthOf(await rowsOf('crm_tag'), 1)
  })

  test('removing a MANY_TO_MANY whose link table has rows: refused; allowed with allowDataLoss', async ({
    assert,
  }) => {
    const { t, o } = await crm(toTags)
    await db.table(link).insert({ crm_order_id: o.id, crm_tag_id: t.id })
    const doc = prune(customer(), tag, order())

    await expectRefused(
      assert,
      doc,
      /dropping link crm_Order\.tags \(table crm_order_tags_link\) would delete 1 row/
    )

    await applyDoc(doc, { allowDataLoss: true })
    assert.isNull(await table(link))
    assert.lengthOf(await rowsOf('crm_order'), 1)
  })

  test('a ONE_TO_MANY via mappedBy adds no column to the owner; removed without DDL', async ({
    assert,
  }) => {
    const { c } = await crm(toCustomer)
    const before = await table('crm_customer')
    const orders: Attr = {
      name: 'orders',
      type: 'association',
      cardinality: 'ONE_TO_MANY',
      target: 'crm_Order',
      mappedBy: 'customer',
    }

    const added = await applyDoc({ entities: [customer(orders)] })

    assert.deepEqual(added.steps, [])
    assert.deepEqual(await table('crm_customer'), before)
    assert.deepEqual(await valuesOf('crm_customer', 'id'), [c.id])
    const stored = await db.from('mg_attributes').where('name', 'orders').first()
    assert.equal(stored.mapped_by, 'customer')
    assert.isNull(stored.column_name)

    const removed = await applyDoc(prune(customer(), tag, order(toCustomer)))
    assert.deepEqual(removed.steps, [])
    assert.deepEqual(await table('crm_customer'), before)
    assert.isNull(await db.from('mg_attributes').where('name', 'orders').first())
  })
})
