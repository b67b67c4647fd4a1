/**
 * Logical DDL operations: what the planner produces and the dialects compile. Table and column
 * names in a `risk` are the names as they exist BEFORE the plan runs (the guard checks them
 * against the current data).
 */
import type { ColumnSpec, IndexSpec, TableSpec } from './physical.js'

export type Risk =
  /** Dropping a table: data lost when it has rows (overridable with allowDataLoss). */
  | { kind: 'rows'; table: string; what: string }
  /** Dropping or converting a column: data lost when it holds values (overridable). */
  | { kind: 'values'; table: string; column: string; what: string }
  /** Shortening a string column: data lost when a value is longer (overridable). */
  | { kind: 'truncate'; table: string; column: string; length: number; what: string }
  /** Making a column NOT NULL: impossible while rows have no value (never overridable). */
  | { kind: 'nulls'; table: string; column: string; what: string }
  /** Adding a NOT NULL column: impossible while the table has rows (never overridable). */
  | { kind: 'needsValue'; table: string; what: string }
  /** A unique index: impossible while duplicates exist (never overridable). */
  | { kind: 'duplicates'; table: string; columns: string[]; whereNull?: string; what: string }

export type Operation = (
  | { op: 'createTable'; table: TableSpec }
  | { op: 'dropTable'; table: TableSpec }
  | { op: 'renameTable'; from: string; to: string }
  | { op: 'addColumn'; table: string; column: ColumnSpec }
  | { op: 'dropColumn'; table: string; column: ColumnSpec }
  | { op: 'renameColumn'; table: string; from: string; to: string }
  | { op: 'alterColumn'; table: string; from: ColumnSpec; to: ColumnSpec }
  | { op: 'renameConstraint'; table: string; from: string; to: string }
  | { op: 'createIndex'; table: string; index: IndexSpec }
  | { op: 'dropIndex'; table: string; index: IndexSpec }
) & { risks?: Risk[] }

export type OperationKind = Operation['op']

/** Renames requested by the definition (`renamedFrom`): new name -> old name. */
export interface RenameHints {
  tables: ReadonlyMap<string, string>
  /** Keyed by the NEW table name: new column -> old column. */
  columns: ReadonlyMap<string, ReadonlyMap<string, string>>
}

export const NO_RENAMES: RenameHints = { tables: new Map(), columns: new Map() }

export function describeOperation(op: Operation): string {
  switch (op.op) {
    case 'createTable':
    case 'dropTable':
      return `${op.op} ${op.table.name}`
    case 'renameTable':
      return `renameTable ${op.from} -> ${op.to}`
    case 'addColumn':
    case 'dropColumn':
      return `${op.op} ${op.table}.${op.column.name}`
    case 'renameColumn':
      return `renameColumn ${op.table}.${op.from} -> ${op.to}`
    case 'alterColumn':
      return `alterColumn ${op.table}.${op.to.name}`
    case 'renameConstraint':
      return `renameConstraint ${op.from} -> ${op.to} on ${op.table}`
    case 'createIndex':
    case 'dropIndex':
      return `${op.op} ${op.index.name} on ${op.table}`
  }
}

export function operationTarget(op: Operation): string {
  switch (op.op) {
    case 'createTable':
    case 'dropTable':
      return op.table.name
    case 'renameTable':
      return op.to
    default:
      return op.table
  }
}
