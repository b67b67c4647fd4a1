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
    const rows = await client.rawQuery(
      `select table_name from information_schema.tables where table_schema = current_schema()`
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
  return dialectOf(client) === 'pg' ? inspectPg(client, table) : inspectSqlite(client, table)
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

async function inspectPg(
  client: QueryClientContract,
  table: string
): Promise<InspectedTable | null> {
  const columns = await client.rawQuery(
    `select column_name, data_type, character_maximum_length, numeric_precision, numeric_scale, is_nullable
       from information_schema.columns where table_schema = current_schema() and table_name = ? order by ordinal_position`,
    [table]
  )
  if (columns.rows.length === 0) return null
  const indexes = await client.rawQuery(
    `select i.relname as name, ix.indisunique as unique, array_to_json(array(
        select a.attname from unnest(ix.indkey) with ordinality k(attnum, n)
        join pg_attribute a on a.attrelid = t.oid and a.attnum = k.attnum order by k.n)) as columns
       from pg_index ix join pg_class t on t.oid = ix.indrelid join pg_class i on i.oid = ix.indexrelid
       join pg_namespace ns on ns.oid = t.relnamespace
      where t.relname = ? and ns.nspname = current_schema() and not ix.indisprimary`,
    [table]
  )
  const fks = await client.rawQuery(
    `select kcu.column_name, ccu.table_name as ref_table, ccu.column_name as ref_column
       from information_schema.table_constraints tc
       join information_schema.key_column_usage kcu on tc.constraint_name = kcu.constraint_name and tc.table_schema = kcu.table_schema
       join information_schema.constraint_column_usage ccu on ccu.constraint_name = tc.constraint_name and ccu.table_schema = tc.table_schema
      where tc.constraint_type = 'FOREIGN KEY' and tc.table_name = ? and tc.table_schema = current_schema()`,
    [table]
  )
  const typeName = (c: any) => {
    if (c.data_type === 'character varying') return `varchar(${c.character_maximum_length})`
    if (c.data_type === 'numeric') return `numeric(${c.numeric_precision}, ${c.numeric_scale})`
    return c.data_type
  }
  return {
    name: table,
    columns: columns.rows.map((c: any) => ({
      name: c.column_name,
      type: typeName(c),
      nullable: c.is_nullable === 'YES',
    })),
    // Companion `lower()` indexes (dialects/pg.ts) belong to the index they are named after.
    indexes: indexes.rows
      .filter((i: any) => !isPrefixIndexName(i.name))
      .map((i: any) => ({ name: i.name, columns: i.columns, unique: i.unique })),
    foreignKeys: fks.rows.map((f: any) => ({
      column: f.column_name,
      table: f.ref_table,
      refColumn: f.ref_column,
    })),
  }
}
