/**
 * Fewer round trips per write (app/engine/schema/dialects/direct_writes.ts, pg_statements.ts,
 * app/engine/data/write/main.ts):
 * - the response of a create or update is read in the write transaction, so a refused response
 *   read leaves nothing written;
 * - PostgreSQL: BEGIN travels with the transaction's first statement, and failures of that
 *   statement leave no transaction open;
 * - PostgreSQL: statements that repeat run as prepared statements, renamed when the model
 *   changes (a table's new column changes `select *`'s result type under the same SQL text).
 */
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { directTransaction } from '#engine/schema/dialects/direct_writes'
import { DataManager } from '#engine/data/data_manager'
import { FULL_ACCESS, type Permissions } from '#security/policy_index'
import { ANONYMOUS } from '#security/subject'
import { dialect, poolInUseSettled, resetDatabase } from '#tests/helpers/database'
import { applyDoc, engine, fullAccessData } from '#tests/helpers/engine'

const ONLY_PG = 'PostgreSQL only: SQLite statements are prepared by the driver, in process'

const crate = (attributes: object[] = []) => ({
  entities: [
    {
      name: 'rt_Crate',
      idType: 'uuid',
      traits: ['versioned'],
      instanceName: 'label',
      attributes: [
        { name: 'label', type: 'string', length: 10, mandatory: true, unique: true },
        { name: 'weight', type: 'int' },
        ...attributes,
      ],
    },
  ],
})

const pool = () => (db.connection().getWriteClient().client as any).pool

/** The pool's idle pg connections, each asked `sql` directly. */
async function askIdle(sql: string): Promise<Record<string, unknown>[]> {
  const out = []
  for (const free of pool().free) out.push(...(await free.resource.query(sql)).rows)
  return out
}

const openTransactions = async () =>
  Number(
    (
      await db.rawQuery(
        "select count(*) as n from pg_stat_activity where datname = current_database() and state like 'idle in transaction%'"
      )
    ).rows[0].n
  )

const labels = async () =>
  (await db.from('rt_crate').select('label').orderBy('label')).map((r) => r.label)

/** FULL_ACCESS without the right to read (create, update and delete stay). */
const writeOnly: Permissions = new Proxy(FULL_ACCESS, {
  get(target, property) {
    if (property === 'canRead') return () => false
    if (property === 'canDo')
      return (entity: string, operation: string) =>
        operation !== 'read' && target.canDo(entity, operation as any)
    const value = Reflect.get(target, property, target)
    return typeof value === 'function' ? value.bind(target) : value
  },
})

async function writeOnlyData() {
  return new DataManager({
    db,
    model: (await engine()).model,
    subject: ANONYMOUS,
    permissions: writeOnly,
    maxFetchSize: 100,
    maxBulkSize: 100,
  })
}

test.group('entities: write round trips', (group) => {
  group.each.setup(async () => {
    await resetDatabase()
    await applyDoc(crate())
  })

  test('the response is read before the commit: a refused response read writes nothing', async ({
    assert,
  }) => {
    const data = await writeOnlyData()
    // Without a response plan, a caller who may not read gets the name and id of the new row.
    const created = await data.create('rt_Crate', { label: 'blind' })
    assert.deepEqual(Object.keys(created), ['_entityName', 'id'])
    assert.equal(created._entityName, 'rt_Crate')
    const stored = await db
      .from('rt_crate')
      .where('id', created.id as string)
      .first()
    assert.equal(stored.label, 'blind')
    // Asking to read it back is refused, and the create is undone with it.
    await assert.rejects(
      () => data.create('rt_Crate', { label: 'asked' }, { responseFetchPlan: '_local' }),
      /read/i
    )
    await assert.rejects(() =>
      data.createMany('rt_Crate', [{ label: 'a1' }, { label: 'a2' }], {
        responseFetchPlan: '_base',
      })
    )
    await assert.rejects(() =>
      data.update('rt_Crate', String(created.id), { weight: 9 }, { responseFetchPlan: '_local' })
    )
    assert.deepEqual(await labels(), ['blind'])
    assert.isNull(
      (
        await db
          .from('rt_crate')
          .where('id', created.id as string)
          .first()
      ).weight
    )
    // A caller who may read sees the row as its own transaction wrote it.
    const full = await fullAccessData()
    const updated = await full.update('rt_Crate', String(created.id), { weight: 3 })
    assert.deepEqual(updated, {
      _entityName: 'rt_Crate',
      _instanceName: 'blind',
      id: created.id,
      version: 2,
    })
  })

  test('a failing first statement (BEGIN sent with it) leaves no transaction open', async ({
    assert,
  }) => {
    await db.table('rt_crate').insert({ id: crypto.randomUUID(), label: 'first', version: 1 })
    // More failures than the pool has connections; the insert repeats, so it runs prepared too.
    for (let i = 0; i < 12; i++) {
      await assert.rejects(() =>
        directTransaction(db.connection(), async (trx) => {
          await trx
            .table('rt_crate')
            .insert({ id: crypto.randomUUID(), label: 'first', version: 1 })
        })
      )
      await assert.rejects(() =>
        directTransaction(db.connection(), async (trx) => {
          await trx.from('no_such_table').select('id')
        })
      )
    }
    assert.equal(await poolInUseSettled(), 0)
    if (dialect() === 'pg') assert.equal(await openTransactions(), 0)
    const data = await fullAccessData()
    await data.create('rt_Crate', { label: 'second' })
    assert.deepEqual(await labels(), ['first', 'second'])
  })

  test('repeated statements run prepared, under new names once the model changes', async ({
    assert,
  }) => {
    const data = await fullAccessData()
    const created = await data.create('rt_Crate', { label: 'one' })
    const id = String(created.id)
    for (let weight = 1; weight <= 3; weight++) {
      await data.update('rt_Crate', id, { weight })
      await data.load('rt_Crate', id)
    }
    const prepared = (await askIdle('select statement from pg_prepared_statements')).map(
      (r) => r.statement as string
    )
    assert.isTrue(
      prepared.some((sql) => /^update "rt_crate" set "weight"/.test(sql)),
      `${prepared}`
    )
    assert.isTrue(prepared.some((sql) => /^select "t0"\.\* from "rt_crate"/.test(sql)))
    assert.isTrue(prepared.some((sql) => /^select "t0"\."id".* from "rt_crate"/.test(sql)))

    // A new column changes the result type of the prepared `select "t0".*`: PostgreSQL refuses
    // to run that statement again, so the new model's statements must carry new names.
    await applyDoc(crate([{ name: 'colour', type: 'string', length: 10 }]))
    const after = await fullAccessData()
    for (let weight = 4; weight <= 6; weight++) {
      const updated = await after.update('rt_Crate', id, { weight, colour: 'red' })
      assert.equal(updated.version, weight + 1)
    }
    const loaded = await after.load('rt_Crate', id, { fetchPlan: '_local' })
    assert.include(loaded, { weight: 6, colour: 'red' })
    assert.equal(await poolInUseSettled(), 0)
  }).skip(() => dialect() !== 'pg', ONLY_PG)
})
