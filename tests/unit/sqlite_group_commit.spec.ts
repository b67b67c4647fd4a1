/**
 * SQLite group commit (app/engine/schema/dialects/sqlite_group_commit.ts), on real
 * better-sqlite3 connections to a file: write transactions that arrive together share one
 * COMMIT, each in a savepoint of its own; a request is answered only once its write is
 * committed (another connection sees it); a failed request leaves nothing; a failed COMMIT or a
 * transaction SQLite rolled back by itself fails every request of the batch and stores nothing.
 */
import { test } from '@japa/runner'
import { createRequire } from 'node:module'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { groupCommit } from '#engine/schema/dialects/sqlite_group_commit'

/** The driver knex uses (it ships no type declarations). */
const Database = createRequire(import.meta.url)('better-sqlite3')

/** knex's pool of one connection, as far as group commit uses it; logs COMMIT and ROLLBACK. */
function pool(file: string, journal = 'wal') {
  const conn = new Database(file)
  conn.pragma(`journal_mode = ${journal}`)
  conn.pragma('busy_timeout = 0')
  conn.exec('create table if not exists item (name text not null, data blob)')
  const log: string[] = []
  const exec = conn.exec.bind(conn)
  conn.exec = (sql: string) => {
    if (/^(COMMIT|ROLLBACK)$/.test(sql)) log.push(sql)
    return exec(sql)
  }
  const state = { inUse: 0, acquired: 0 }
  const waiting: (() => void)[] = []
  const client = {
    acquireConnection: async () => {
      // As knex's pool of one: a second acquirer waits for the connection to come back.
      while (state.inUse) await new Promise<void>((resolve) => waiting.push(resolve))
      state.inUse++
      state.acquired++
      return conn
    },
    releaseConnection: async () => {
      state.inUse--
      waiting.shift()?.()
    },
  }
  return { conn, client, log, state }
}

const insert =
  (name: string, data: Buffer | null = null) =>
  async (conn: any) => {
    conn.prepare('insert into item (name, data) values (?, ?)').run(name, data)
    return name
  }

const failAfter = (name: string) => async (conn: any) => {
  await insert(name)(conn)
  throw new Error(`refused ${name}`)
}

test.group('SQLite group commit', (group) => {
  let dir = ''
  group.each.setup(() => {
    dir = mkdtempSync(join(tmpdir(), 'mg-group-commit-'))
    return () => rmSync(dir, { recursive: true, force: true })
  })

  test('requests arriving together share one commit; a refused one leaves nothing', async ({
    assert,
  }) => {
    const { conn, client, log, state } = pool(join(dir, 'a.sqlite3'))
    const reader = new Database(join(dir, 'a.sqlite3'), { readonly: true })
    const seenWhenAnswered: string[][] = []
    const names = () =>
      reader
        .prepare('select name from item order by name')
        .all()
        .map((r: any) => r.name)
    const requests = ['a', 'b', 'c', 'd', 'e'].map((name) =>
      groupCommit(client, name === 'c' ? failAfter(name) : insert(name)).then((value) => {
        seenWhenAnswered.push(names())
        return value
      })
    )
    const outcomes = await Promise.allSettled(requests)
    assert.deepEqual(
      outcomes.map((o) => (o.status === 'fulfilled' ? o.value : String(o.reason.message))),
      ['a', 'b', 'refused c', 'd', 'e']
    )
    assert.deepEqual(log, ['COMMIT'])
    assert.equal(state.acquired, 1)
    // Answered only once committed: another connection already sees every stored row.
    for (const seen of seenWhenAnswered) assert.deepEqual(seen, ['a', 'b', 'd', 'e'])
    assert.equal(state.inUse, 0)
    assert.isFalse(conn.inTransaction)
    const later = await groupCommit(client, insert('f'))
    assert.equal(later, 'f')
    assert.deepEqual(log, ['COMMIT', 'COMMIT'])
    assert.deepEqual(names(), ['a', 'b', 'd', 'e', 'f'])
    reader.close()
    conn.close()
  })

  test('a failed COMMIT fails every request of the batch and stores nothing', async ({
    assert,
  }) => {
    // Rollback-journal mode: a reader's shared lock makes the writer's COMMIT fail (busy).
    const file = join(dir, 'b.sqlite3')
    const { conn, client, log, state } = pool(file, 'delete')
    const reader = new Database(file)
    reader.pragma('busy_timeout = 0')
    reader.exec('BEGIN')
    reader.prepare('select count(*) from item').get()
    const outcomes = await Promise.allSettled(
      ['a', 'b', 'c'].map((n) => groupCommit(client, insert(n)))
    )
    assert.deepEqual(
      outcomes.map((o) => (o.status === 'rejected' ? o.reason.code : 'stored')),
      ['SQLITE_BUSY', 'SQLITE_BUSY', 'SQLITE_BUSY']
    )
    assert.deepEqual(log, ['COMMIT', 'ROLLBACK'])
    reader.exec('COMMIT')
    assert.equal((reader.prepare('select count(*) as n from item').get() as any).n, 0)
    assert.equal(state.inUse, 0)
    assert.isFalse(conn.inTransaction)
    reader.close()
    conn.close()
  })

  test('a transaction SQLite rolled back by itself fails the whole batch', async ({ assert }) => {
    const { conn, client, state } = pool(join(dir, 'c.sqlite3'))
    const pages = conn.pragma('page_count', { simple: true }) as number
    conn.pragma(`max_page_count = ${pages + 3}`)
    const outcomes = await Promise.allSettled([
      groupCommit(client, insert('small')),
      groupCommit(client, insert('too big', Buffer.alloc(100_000))),
      groupCommit(client, insert('after')),
    ])
    assert.deepEqual(
      outcomes.map((o) => (o.status === 'rejected' ? o.reason.code : 'stored')),
      ['SQLITE_FULL', 'SQLITE_FULL', 'SQLITE_FULL']
    )
    assert.equal((conn.prepare('select count(*) as n from item').get() as any).n, 0)
    assert.equal(state.inUse, 0)
    conn.pragma('max_page_count = 1073741823')
    assert.equal(await groupCommit(client, insert('next batch')), 'next batch')
    conn.close()
  })

  test('a batch holds at most 64 requests; the rest commit in the next', async ({ assert }) => {
    const { conn, client, log, state } = pool(join(dir, 'd.sqlite3'))
    const names = Array.from({ length: 100 }, (_, i) => `n${i}`)
    assert.deepEqual(await Promise.all(names.map((n) => groupCommit(client, insert(n)))), names)
    assert.deepEqual(log, ['COMMIT', 'COMMIT'])
    assert.equal(state.acquired, 2)
    assert.equal((conn.prepare('select count(*) as n from item').get() as any).n, 100)
    conn.close()
  })
})
