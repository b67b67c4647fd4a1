/**
 * What a SQL dialect provides to the DDL executor. Every dialect difference of the model engine
 * lives under this folder.
 */
import type { Operation, RenameHints } from '../operations.js'
import type { ColumnSpec, IndexSpec, PhysicalSchema } from '../physical.js'

export interface CompileContext {
  current: PhysicalSchema
  wanted: PhysicalSchema
  hints: RenameHints
}

/** One executable step: the SQL of one logical operation (or of a SQLite table rebuild). */
export interface CompiledStep {
  kind: Operation['op'] | 'rebuildTable' | 'addForeignKey'
  target: string
  description: string
  sql: string[]
}

export interface Dialect {
  readonly name: 'sqlite' | 'pg'
  compile(operations: Operation[], context: CompileContext): CompiledStep[]
}

const SAFE_IDENTIFIER = /^[A-Za-z0-9_]+$/

/**
 * Quotes an identifier that the model engine produced. Names were validated long before this
 * point; refusing anything else here is the last line of defence against SQL injection.
 */
export function quote(identifier: string): string {
  if (!SAFE_IDENTIFIER.test(identifier)) throw new Error(`unsafe SQL identifier '${identifier}'`)
  return `"${identifier}"`
}

export function columnList(columns: string[]): string {
  return columns.map(quote).join(', ')
}

export function createIndexSql(table: string, index: IndexSpec): string {
  const unique = index.unique ? 'UNIQUE ' : ''
  const where = index.whereNull ? ` WHERE ${quote(index.whereNull)} IS NULL` : ''
  return `CREATE ${unique}INDEX ${quote(index.name)} ON ${quote(table)} (${columnList(index.columns)})${where}`
}

export function defaultClause(column: ColumnSpec): string {
  return column.defaultValue !== undefined ? ` DEFAULT ${Number(column.defaultValue)}` : ''
}
