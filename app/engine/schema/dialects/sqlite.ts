/**
 * SQLite DDL. ALTER TABLE cannot change a column's type, nullability or foreign key, nor drop a
 * referenced/indexed column, so those changes rebuild the table (SQLite's documented 12-step
 * procedure): create the new shape, copy the rows, drop the old table, rename, re-create the
 * indexes. The executor turns foreign-key enforcement off around the transaction and runs
 * `PRAGMA foreign_key_check` before committing.
 */
import type { Operation } from '../operations.js'
import { describeOperation, operationTarget } from '../operations.js'
import type { ColumnSpec, ColumnType, TableSpec } from '../physical.js'
import type { CompileContext, CompiledStep, Dialect } from './dialect.js'
import { columnList, createIndexSql, defaultClause, quote } from './dialect.js'
import { classifyTypeChange, textLimit } from '../type_change.js'
import { sqliteTemporalCopy } from '../temporal_text.js'

export function sqliteType(type: ColumnType): string {
  switch (type.kind) {
    case 'string':
      return `varchar(${type.length ?? 255})`
    case 'uuid':
      return 'char(36)'
    case 'int':
      return 'integer'
    case 'long':
      return 'bigint'
    case 'double':
      return 'double'
    case 'decimal':
      return `numeric(${type.precision ?? 19}, ${type.scale ?? 2})`
    case 'boolean':
      return 'boolean'
    case 'date':
      return 'date'
    case 'time':
      return 'time'
    case 'dateTime':
      return 'datetime'
    case 'offsetDateTime':
      return 'timestamptz'
    case 'enum':
      return 'varchar(255)'
    case 'file':
      return 'varchar(1024)'
    case 'text':
    case 'json':
      return 'text'
  }
}

function columnSql(column: ColumnSpec, inlinePk: boolean): string {
  if (inlinePk && column.primaryKey && column.autoIncrement) {
    return `${quote(column.name)} integer PRIMARY KEY AUTOINCREMENT`
  }
  let sql = `${quote(column.name)} ${sqliteType(column.type)}`
  if (!column.nullable) sql += ' NOT NULL'
  sql += defaultClause(column)
  if (inlinePk && column.primaryKey) sql += ' PRIMARY KEY'
  if (column.references) {
    const ref = column.references
    sql += ` CONSTRAINT ${quote(ref.constraint)} REFERENCES ${quote(ref.table)} (${quote(ref.column)})`
  }
  return sql
}

function createTableSql(table: TableSpec, name = table.name): string {
  const single = table.primaryKey.length === 1
  const parts = table.columns.map((c) => columnSql(c, single))
  if (!single) parts.push(`PRIMARY KEY (${columnList(table.primaryKey)})`)
  return `CREATE TABLE ${quote(name)} (${parts.join(', ')})`
}

/** Does this operation need the table to be rebuilt on SQLite? */
function needsRebuild(op: Operation): boolean {
  if (op.op === 'alterColumn' || op.op === 'dropColumn') return true
  return op.op === 'addColumn' && !op.column.nullable && op.column.defaultValue === undefined
}

function copyExpression(source: ColumnSpec, target: ColumnSpec): string {
  const src = quote(source.name)
  const change = classifyTypeChange(source.type, target.type)
  // Temporal text in its canonical form (temporal_text.ts), as the write pipeline stores it.
  const temporal = change === 'widen' && sqliteTemporalCopy(source.type.kind, target.type.kind, src)
  if (temporal) return temporal
  switch (change) {
    case 'same':
    case 'widen':
      return target.type.kind === 'string' || target.type.kind === 'text'
        ? `CAST(${src} AS TEXT)`
        : src
    case 'truncate':
      return `substr(${src}, 1, ${Number(textLimit(target.type))})`
    case 'convert':
      if (['int', 'long', 'boolean'].includes(target.type.kind)) return `CAST(${src} AS INTEGER)`
      if (['double', 'decimal'].includes(target.type.kind)) return `CAST(${src} AS REAL)`
      return `CAST(${src} AS TEXT)`
  }
}

function rebuildSql(table: TableSpec, context: CompileContext): string[] {
  const oldName = context.hints.tables.get(table.name) ?? table.name
  const old = context.current.get(oldName)!
  const renamed = context.hints.columns.get(table.name)
  const oldColumns = new Map(old.columns.map((c) => [c.name, c]))
  const renamedTables = new Map([...context.hints.tables].map(([to, from]) => [from, to]))
  const targets: string[] = []
  const sources: string[] = []
  for (const column of table.columns) {
    const source = oldColumns.get(renamed?.get(column.name) ?? column.name)
    if (!source) continue
    targets.push(column.name)
    const oldRef =
      source.references && (renamedTables.get(source.references.table) ?? source.references.table)
    // Retargeted relation: the old values are ids of the old target (the guard refused this
    // unless data loss was allowed); copied, they would fail the foreign key check.
    const retargeted = !!column.references && oldRef !== column.references.table
    sources.push(retargeted ? 'NULL' : copyExpression(source, column))
  }
  const temp = `__mg_rebuild_${table.name}`.slice(0, 63)
  return [
    createTableSql(table, temp),
    `INSERT INTO ${quote(temp)} (${columnList(targets)}) SELECT ${sources.join(', ')} FROM ${quote(table.name)}`,
    `DROP TABLE ${quote(table.name)}`,
    `ALTER TABLE ${quote(temp)} RENAME TO ${quote(table.name)}`,
    ...table.indexes.map((i) => createIndexSql(table.name, i)),
  ]
}

function compileOne(op: Operation): string[] {
  switch (op.op) {
    case 'createTable':
      return [
        createTableSql(op.table),
        ...op.table.indexes.map((i) => createIndexSql(op.table.name, i)),
      ]
    case 'dropTable':
      return [`DROP TABLE ${quote(op.table.name)}`]
    case 'renameTable':
      return [`ALTER TABLE ${quote(op.from)} RENAME TO ${quote(op.to)}`]
    case 'addColumn':
      return [`ALTER TABLE ${quote(op.table)} ADD COLUMN ${columnSql(op.column, false)}`]
    case 'renameColumn':
      return [`ALTER TABLE ${quote(op.table)} RENAME COLUMN ${quote(op.from)} TO ${quote(op.to)}`]
    case 'createIndex':
      return [createIndexSql(op.table, op.index)]
    case 'dropIndex':
      return [`DROP INDEX IF EXISTS ${quote(op.index.name)}`]
    case 'renameConstraint':
      // SQLite keeps foreign keys by table and column; constraint names carry no meaning.
      return []
    case 'alterColumn':
    case 'dropColumn':
      throw new Error(`${op.op} is compiled as a table rebuild on SQLite`)
  }
}

const COLUMN_OPS = new Set<Operation['op']>([
  'addColumn',
  'dropColumn',
  'renameColumn',
  'alterColumn',
  'createIndex',
])

export const sqliteDialect: Dialect = {
  name: 'sqlite',
  compile(operations, context) {
    const rebuilt = new Set(operations.filter(needsRebuild).map((op) => operationTarget(op)))
    const steps: CompiledStep[] = []
    const emitted = new Set<string>()
    for (const op of operations) {
      const table = operationTarget(op)
      if (rebuilt.has(table) && COLUMN_OPS.has(op.op)) {
        if (emitted.has(table)) continue
        emitted.add(table)
        const spec = context.wanted.get(table)!
        steps.push({
          kind: 'rebuildTable',
          target: table,
          description: `rebuild table ${table} (${operations
            .filter((o) => operationTarget(o) === table && COLUMN_OPS.has(o.op))
            .map(describeOperation)
            .join('; ')})`,
          sql: rebuildSql(spec, context),
        })
        continue
      }
      const sql = compileOne(op)
      if (sql.length)
        steps.push({ kind: op.op, target: table, description: describeOperation(op), sql })
    }
    return steps
  },
}
