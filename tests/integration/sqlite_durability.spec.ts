/**
 * The SQLite durability contract (catalogue 1.6): every pooled connection runs in WAL mode with
 * `synchronous = FULL` (a returned commit survives a power loss), foreign keys enforced and a
 * busy timeout of at least 5 s; write transactions start with BEGIN IMMEDIATE, so a second
 * process on the same file waits for the write lock instead of failing.
 */
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { spawn } from 'node:child_process'
import { dialect, resetDatabase } from '#tests/helpers/database'
import { applyDoc, fullAccessData, numberedId } from '#tests/helpers/engine'

const ONLY_SQLITE = 'SQLite only: PostgreSQL keeps its own durable defaults and row locks'

async function withPooled<T>(work: (conn: any) => T): Promise<T> {
  const client = db.connection().getWriteClient().client as any
  const conn = await client.acquireConnection()
  try {
    return work(conn)
  } finally {
    await client.releaseConnection(conn)
  }
}

test.group('SQLite durability settings', () => {
  test('pooled connections: WAL, synchronous FULL, foreign keys, busy timeout', async ({
    assert,
  }) => {
    const settings = await withPooled((conn) => ({
      journal: conn.pragma('journal_mode', { simple: true }),
      synchronous: conn.pragma('synchronous', { simple: true }),
      foreignKeys: conn.pragma('foreign_keys', { simple: true }),
      busyTimeout: conn.pragma('busy_timeout', { simple: true }),
    }))
    assert.deepEqual(settings, {
      journal: 'wal',
      synchronous: 2,
      foreignKeys: 1,
      busyTimeout: 5000,
    })
  }).skip(() => dialect() !== 'sqlite', ONLY_SQLITE)

  test('a write waits for another process holding the write lock, then lands', async ({
    assert,
  }) => {
    await resetDatabase()
    await applyDoc(doc)
    await db.table('du_shelf').insert({ id: id(1), label: 'top' })
    const dm = await fullAccessData(100)
    const holder = await holdWriteLock(300)
    try {
      // The create reads the shelf, then inserts: with a deferred BEGIN the insert would fail
      // with SQLITE_BUSY_SNAPSHOT once the other process has committed in between.
      const created = await dm.create('du_Box', { label: 'waited', shelf: { id: id(1) } })
      assert.equal(created._instanceName, 'waited')
    } finally {
      await holder.exited
    }
    assert.deepEqual(
      (await db.from('du_shelf').orderBy('label')).map((r) => r.label),
      ['other process', 'top']
    )
    assert.equal((await db.from('du_box').first()).label, 'waited')
  }).skip(() => dialect() !== 'sqlite', ONLY_SQLITE)
})

const id = numberedId

const doc = {
  entities: [
    {
      name: 'du_Shelf',
      idType: 'uuid',
      instanceName: 'label',
      attributes: [{ name: 'label', type: 'string', length: 40 }],
    },
    {
      name: 'du_Box',
      idType: 'uuid',
      instanceName: 'label',
      attributes: [
        { name: 'label', type: 'string', length: 40 },
        { name: 'shelf', type: 'association', cardinality: 'MANY_TO_ONE', target: 'du_Shelf' },
      ],
    },
  ],
}

/**
 * Another process takes the write lock of the database file (BEGIN IMMEDIATE, an insert),
 * holds it `ms`, then commits. Resolves once it holds the lock.
 */
async function holdWriteLock(ms: number) {
  const client = db.connection().getWriteClient().client as any
  const file: string = client.connectionSettings.filename
  const script = `
    const Database = require('better-sqlite3')
    const conn = new Database(process.argv[1])
    conn.exec('BEGIN IMMEDIATE')
    conn.prepare("insert into du_shelf (id, label) values ('${id(2)}', 'other process')").run()
    process.stdout.write('locked\\n')
    setTimeout(() => { conn.exec('COMMIT'); conn.close() }, ${ms})
  `
  const child = spawn(process.execPath, ['-e', script, file], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const exited = new Promise<void>((resolve, reject) =>
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`exit ${code}`))))
  )
  await new Promise<void>((resolve, reject) => {
    child.stdout.once('data', () => resolve())
    child.once('exit', () => reject(new Error('the lock holder exited early')))
  })
  return { exited }
}
