/**
 * A faster `resetDatabase` on PostgreSQL, where dropping the schema and running every migration
 * again costs ~260 ms (about 470 resets per pass). The first reset of a test process migrates
 * for real and captures the result: the system tables, their rows and the sequences. Later
 * resets drop every other table, empty the system tables and put the captured rows and
 * sequence positions back, in one transaction. Any difference in the system tables' columns
 * (a test that altered or dropped one) or any error falls back to the full reset. SQLite resets
 * in ~35 ms and always migrates.
 */
import db from '@adonisjs/lucid/services/db'

interface Migrated {
  /** System tables in creation order (a table's foreign keys name earlier ones). */
  tables: string[]
  rows: Map<string, Record<string, unknown>[]>
  sequences: { name: string; last_value: string; is_called: boolean }[]
  /** The columns of the system tables, as one text. */
  signature: string
}

let migrated: Migrated | null = null
const quote = (name: string) => `"${name.replace(/"/g, '""')}"`

/** pg_class kinds a test may leave behind, and the word DROP takes for each. */
const DROP_AS: Record<string, string> = {
  r: 'table',
  p: 'table',
  v: 'view',
  m: 'materialized view',
  f: 'foreign table',
  S: 'sequence',
}

/** Relations of the current schema of the given pg_class kinds, in creation order. */
async function relations(client: any, kinds: string[]): Promise<{ name: string; kind: string }[]> {
  const { rows } = await client.rawQuery(
    `select c.relname as name, c.relkind as kind from pg_class c
       join pg_namespace ns on ns.oid = c.relnamespace
      where ns.nspname = current_schema() and c.relkind = any(?) order by c.oid`,
    [kinds]
  )
  return rows
}

async function signature(client: any, tables: string[]): Promise<string> {
  const { rows } = await client.rawQuery(
    `select c.relname || '.' || a.attname || ':' || format_type(a.atttypid, a.atttypmod) as col
       from pg_attribute a join pg_class c on c.oid = a.attrelid
       join pg_namespace ns on ns.oid = c.relnamespace
      where ns.nspname = current_schema() and c.relname = any(?) and a.attnum > 0 and not a.attisdropped
      order by 1`,
    [tables]
  )
  return rows.map((r: any) => r.col).join(',')
}

/** Records the freshly migrated state (PostgreSQL only). */
export async function captureMigrated() {
  const client = db.connection()
  if (client.dialect.name !== 'postgres') return
  const tables = (await relations(client, ['r'])).map((r) => r.name)
  const rows = new Map<string, Record<string, unknown>[]>()
  for (const table of tables)
    rows.set(table, (await client.rawQuery(`select * from ${quote(table)}`)).rows)
  const sequenceNames = await relations(client, ['S'])
  const sequences = []
  for (const { name } of sequenceNames) {
    const { rows: state } = await client.rawQuery(
      `select last_value::text, is_called from ${quote(name)}`
    )
    sequences.push({ name, ...state[0] })
  }
  migrated = { tables, rows, sequences, signature: await signature(client, tables) }
}

/** Puts the captured state back; false when there is none or it cannot be trusted. */
export async function restoreMigrated(): Promise<boolean> {
  if (!migrated || db.connection().dialect.name !== 'postgres') return false
  const state = migrated
  try {
    await db.transaction(async (trx) => {
      if ((await signature(trx, state.tables)) !== state.signature) throw new Error('altered')
      const kept = new Set([...state.tables, ...state.sequences.map((q) => q.name)])
      const present = (await relations(trx, Object.keys(DROP_AS))).filter((r) => !kept.has(r.name))
      // Tables first: their sequences go with them (a serial's sequence cannot be dropped alone).
      present.sort((a, b) => Number(a.kind === 'S') - Number(b.kind === 'S'))
      for (const { name, kind } of present)
        await trx.rawQuery(`drop ${DROP_AS[kind]} if exists ${quote(name)} cascade`)
      await trx.rawQuery(`truncate ${state.tables.map(quote).join(', ')} restart identity cascade`)
      for (const table of state.tables) {
        const rows = state.rows.get(table)!
        if (rows.length) await trx.table(table).multiInsert(rows)
      }
      for (const s of state.sequences)
        await trx.rawQuery('select setval(?::regclass, ?::bigint, ?)', [
          quote(s.name),
          s.last_value,
          s.is_called,
        ])
    })
    return true
  } catch (error) {
    // An altered system table is expected now and then; anything else is worth a line.
    if ((error as Error).message !== 'altered')
      console.warn(`resetDatabase: full reset (${(error as Error).message})`)
    migrated = null
    return false
  }
}
