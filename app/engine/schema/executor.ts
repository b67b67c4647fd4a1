/**
 * Runs compiled DDL steps inside the model transaction. On SQLite, foreign-key enforcement is
 * switched off around the transaction (required by table rebuilds; it cannot change inside a
 * transaction) and the result is verified with `PRAGMA foreign_key_check` before commit.
 */
import type { Database } from '@adonisjs/lucid/database'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import type { CompiledStep } from './dialects/dialect.js'
import { dialectOf } from './inspector.js'

export async function withSchemaTransaction<T>(
  db: Database,
  work: (trx: TransactionClientContract) => Promise<T>
): Promise<T> {
  const client = db.connection()
  if (dialectOf(client) === 'pg') {
    return db.transaction(async (trx) => {
      // Never wait forever behind a long-running transaction holding a table lock.
      await trx.rawQuery(`SET LOCAL lock_timeout = '10s'`)
      // Serializes model changes across instances: the version row is the lock.
      await trx.rawQuery(`SELECT version FROM mg_versions WHERE key = 'model' FOR UPDATE`)
      return work(trx)
    })
  }
  await client.rawQuery('PRAGMA foreign_keys = OFF')
  try {
    return await db.transaction(async (trx) => {
      // Serializes model changes across processes, as the row lock does on PostgreSQL: the
      // write lock is taken (waiting out the busy timeout) before anything is read. A deferred
      // transaction that read first would fail with SQLITE_BUSY when another process committed
      // a change meanwhile, instead of reading the new version and answering 'stale'.
      await trx.rawQuery(`UPDATE mg_versions SET version = version WHERE key = 'model'`)
      // The pool must hand the transaction the connection the pragma ran on (knex keeps one
      // SQLite connection); with enforcement on, a table rebuild could cascade or fail.
      const [{ foreign_keys: enforced }] = await trx.rawQuery('PRAGMA foreign_keys')
      if (enforced)
        throw new Error('SQLite foreign keys are still enforced inside the schema transaction')
      const value = await work(trx)
      const violations = await trx.rawQuery('PRAGMA foreign_key_check')
      if (violations.length) {
        throw new Error(`schema change would break ${violations.length} foreign key reference(s)`)
      }
      return value
    })
  } finally {
    await client.rawQuery('PRAGMA foreign_keys = ON')
  }
}

export async function executeSteps(
  trx: TransactionClientContract,
  steps: CompiledStep[],
  onStep: (index: number) => void = () => {}
) {
  for (const [index, step] of steps.entries()) {
    onStep(index)
    for (const sql of step.sql) await trx.rawQuery(sql)
  }
}
