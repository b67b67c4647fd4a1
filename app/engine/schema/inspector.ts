/**
 * Reads the real schema of the database (tables, columns, indexes, foreign keys). The planner
 * uses the table list to detect conflicts; tests use the details to prove what DDL did.
 */
import type { QueryClientContract } from '@adonisjs/lucid/types/database'
import { isPrefixIndexName } from './dialects/text_search.js'

export interface InspectedColumn {
  name: string
  type: string
  nullable: boolean
}
export interface InspectedIndex {
  name: string
  columns: string[]
  unique: boolean
}
export interface InspectedForeignKey {
  column: string
  table: string
  refColumn: string
}
export interface InspectedTable {
  name: string
  columns: InspectedColumn[]
  indexes: InspectedIndex[]
  foreignKeys: InspectedForeignKey[]
}

export function dialectOf(client: QueryClientContract): 'sqlite' | 'pg' {
  return client.dialect.name === 'postgres' ? 'pg' : 'sqlite'
}

export async function listTables(client: QueryClientContract): Promise<Set<string>> {
  if (dialectOf(client) === 'pg') {
    // pg_catalog rather than information_schema.tables: the same relations (tables, views,
    // foreign tables of the current schema) in a fraction of the time.
    const rows = await client.rawQuery(
      `select c.relname as table_name from pg_class c join pg_namespace ns on ns.oid = c.relnamespace
        where ns.nspname = current_schema() and c.relkind in ('r', 'p', 'v', 'm', 'f')`
    )
    return new Set(rows.rows.map((r: any) => r.table_name))
  }
  const rows = await client.rawQuery(`select name from sqlite_master where type = 'table'`)
  return new Set(rows.map((r: any) => r.name))
}

export async function inspectTable(
  client: QueryClientContract,
  table: string
): Promise<InspectedTable | null> {
  if (dialectOf(client) === 'pg') return (await inspectPg(client, table)).get(table) ?? null
  return inspectSqlite(client, table)
}

async function inspectSqlite(
  client: QueryClientContract,
  table: string
): Promise<InspectedTable | null> {
  const columns = await client.rawQuery(`select * from pragma_table_info(?)`, [table])
  if (columns.length === 0) return null
  const indexList = await client.rawQuery(`select * from pragma_index_list(?)`, [table])
  const indexes: InspectedIndex[] = []
  for (const index of indexList) {
    if (String(index.name).startsWith('sqlite_autoindex')) continue
    const info = await client.rawQuery(`select * from pragma_index_info(?) order by seqno`, [
      index.name,
    ])
    indexes.push({
      name: index.name,
      columns: info.map((i: any) => i.name),
      unique: index.unique === 1,
    })
  }
  const fks = await client.rawQuery(`select * from pragma_foreign_key_list(?)`, [table])
  return {
    name: table,
    columns: columns.map((c: any) => ({
      name: c.name,
      type: String(c.type).toLowerCase(),
      nullable: c.notnull === 0 && c.pk === 0,
    })),
    indexes,
    foreignKeys: fks.map((f: any) => ({ column: f.from, table: f.table, refColumn: f.to })),
  }
}

/** Every table of the schema, inspected (tests compare whole schemas before and after). */
export async function inspectSchema(
  client: QueryClientContract
): Promise<Map<string, InspectedTable>> {
  if (dialectOf(client) === 'pg') return inspectPg(client, null)
  const result = new Map<string, InspectedTable>()
  for (const table of await listTables(client)) {
    const inspection = await inspectSqlite(client, table)
    if (inspection) result.set(table, inspection)
  }
  return result
}

/**
 * One table, or every table of the current schema (null), in three catalog queries whatever
 * the count: per-table information_schema joins cost ~25 ms a table.
 */
async function inspectPg(
  client: QueryClientContract,
  table: string | null
): Promise<Map<string, InspectedTable>> {
  const only = (column: string) => (table === null ? '' : ` and ${column} = ?`)
  const bindings = table === null ? [] : [table]
  const columns = await client.rawQuery(
    `select table_name, column_name, data_type, character_maximum_length, numeric_precision, numeric_scale, is_nullable
       from information_schema.columns where table_schema = current_schema()${only('table_name')}
      order by table_name, ordinal_position`,
    bindings
  )
  const indexes = await client.rawQuery(
    `select t.relname as table_name, i.relname as name, ix.indisunique as unique, array_to_json(array(
        select a.attname from unnest(ix.indkey) with ordinality k(attnum, n)
        join pg_attribute a on a.attrelid = t.oid and a.attnum = k.attnum order by k.n)) as columns
       from pg_index ix join pg_class t on t.oid = ix.indrelid join pg_class i on i.oid = ix.indexrelid
       join pg_namespace ns on ns.oid = t.relnamespace
      where ns.nspname = current_schema() and not ix.indisprimary${only('t.relname')}`,
    bindings
  )
  // pg_constraint: one row per column pair of each foreign key.
  const fks = await client.rawQuery(
    `select t.relname as table_name, a.attname as column_name, rt.relname as ref_table, ra.attname as ref_column
       from pg_constraint c join pg_class t on t.oid = c.conrelid
       join pg_namespace ns on ns.oid = t.relnamespace join pg_class rt on rt.oid = c.confrelid
       cross join lateral unnest(c.conkey, c.confkey) as k(col, ref_col)
       join pg_attribute a on a.attrelid = c.conrelid and a.attnum = k.col
       join pg_attribute ra on ra.attrelid = c.confrelid and ra.attnum = k.ref_col
      where c.contype = 'f' and ns.nspname = current_schema()${only('t.relname')}
      order by c.conname`,
    bindings
  )
  const typeName = (c: any) => {
    if (c.data_type === 'character varying') return `varchar(${c.character_maximum_length})`
    if (c.data_type === 'numeric') return `numeric(${c.numeric_precision}, ${c.numeric_scale})`
    return c.data_type
  }
  const result = new Map<string, InspectedTable>()
  for (const c of columns.rows) {
    let inspected = result.get(c.table_name)
    if (!inspected) {
      inspected = { name: c.table_name, columns: [], indexes: [], foreignKeys: [] }
      result.set(c.table_name, inspected)
    }
    inspected.columns.push({
      name: c.column_name,
      type: typeName(c),
      nullable: c.is_nullable === 'YES',
    })
  }
  // Companion `lower()` indexes (dialects/pg.ts) belong to the index they are named after.
  for (const i of indexes.rows) {
    if (isPrefixIndexName(i.name)) continue
    result.get(i.table_name)?.indexes.push({ name: i.name, columns: i.columns, unique: i.unique })
  }
  for (const f of fks.rows) {
    result
      .get(f.table_name)
      ?.foreignKeys.push({ column: f.column_name, table: f.ref_table, refColumn: f.ref_column })
  }
  return result
}
