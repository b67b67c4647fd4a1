/**
 * The pure DDL planner: (current schema, wanted schema, rename hints, inspected database)
 * -> ordered operations, each carrying the data-loss risk the guard must check. No I/O here.
 */
import type { ColumnSpec, IndexSpec, PhysicalSchema, TableSpec } from './physical.js'
import { sameColumnType } from './physical.js'
import type { Operation, RenameHints, Risk } from './operations.js'
import { classifyTypeChange } from './type_change.js'

export interface InspectedSchema {
  /** Tables that exist in the database right now (any owner). */
  tables: ReadonlySet<string>
}

export interface PlanResult {
  operations: Operation[]
  /** Conflicts the plan cannot resolve (e.g. a table name already taken in the database). */
  conflicts: string[]
}

function sameIndex(a: IndexSpec, b: IndexSpec): boolean {
  return a.unique === b.unique && a.whereNull === b.whereNull && a.columns.join() === b.columns.join()
}


/** Orders tables so that referenced tables come before the tables referencing them. */
function byDependencies(tables: TableSpec[]): TableSpec[] {
  const names = new Set(tables.map((t) => t.name))
  const done = new Set<string>()
  const out: TableSpec[] = []
  const visit = (t: TableSpec, stack: Set<string>) => {
    if (done.has(t.name) || stack.has(t.name)) return
    stack.add(t.name)
    for (const c of t.columns) {
      const ref = c.references?.table
      if (ref && names.has(ref) && ref !== t.name) visit(tables.find((x) => x.name === ref)!, stack)
    }
    done.add(t.name)
    out.push(t)
  }
  for (const t of tables) visit(t, new Set())
  return out
}

export function planSchema(
  current: PhysicalSchema,
  wanted: PhysicalSchema,
  hints: RenameHints,
  inspected: InspectedSchema
): PlanResult {
  const conflicts: string[] = []
  const dropIndexes: Operation[] = []
  const renames: Operation[] = []
  const creates: TableSpec[] = []
  const columnOps: Operation[] = []
  const createIndexes: Operation[] = []
  const matched = new Set<string>()

  for (const next of wanted.values()) {
    const oldName = hints.tables.get(next.name) ?? next.name
    const old = current.get(oldName)
    if (!old) {
      if (inspected.tables.has(next.name)) {
        conflicts.push(`table '${next.name}' (${next.owner}) already exists in the database but not in the model`)
      }
      creates.push(next)
      continue
    }
    matched.add(oldName)
    if (oldName !== next.name) {
      if (inspected.tables.has(next.name) && !current.has(next.name)) {
        conflicts.push(`cannot rename '${oldName}' to '${next.name}': that table already exists`)
      }
      renames.push({ op: 'renameTable', from: oldName, to: next.name })
    }
    diffColumns(old, next, hints, columnOps)
    const oldIndexes = new Map(old.indexes.map((i) => [i.name, i]))
    const nextIndexes = new Map(next.indexes.map((i) => [i.name, i]))
    const renamedColumns = hints.columns.get(next.name)?.size ?? 0
    for (const index of old.indexes) {
      const keep = nextIndexes.get(index.name)
      if (!keep || !sameIndex(keep, index) || renamedColumns > 0 || oldName !== next.name) {
        dropIndexes.push({ op: 'dropIndex', table: oldName, index })
      }
    }
    for (const index of next.indexes) {
      const had = oldIndexes.get(index.name)
      if (!had || !sameIndex(had, index) || renamedColumns > 0 || oldName !== next.name) {
        createIndexes.push({ op: 'createIndex', table: next.name, index, risks: uniqueRisk(next, index, old) })
      }
    }
  }

  const drops: Operation[] = byDependencies([...current.values()].filter((t) => !matched.has(t.name)))
    .reverse()
    .map((table) => ({
      op: 'dropTable' as const,
      table,
      risks: [{ kind: 'rows' as const, table: table.name, what: `dropping ${table.owner} (table ${table.name})` }],
    }))

  return {
    operations: [
      ...dropIndexes,
      ...drops,
      ...renames,
      ...byDependencies(creates).map((table) => ({ op: 'createTable' as const, table })),
      ...columnOps,
      ...createIndexes,
    ],
    conflicts,
  }
}

function uniqueRisk(next: TableSpec, index: IndexSpec, old: TableSpec) {
  if (!index.unique) return undefined
  // Only columns that already exist can hold duplicates; map them back to their old names.
  const oldColumns = new Set(old.columns.map((c) => c.name))
  if (!index.columns.every((c) => oldColumns.has(c))) return undefined
  return [
    {
      kind: 'duplicates' as const,
      table: old.name,
      columns: index.columns,
      whereNull: index.whereNull,
      what: `unique index on ${next.name}(${index.columns.join(', ')})`,
    },
  ]
}

function diffColumns(
  old: TableSpec,
  next: TableSpec,
  hints: RenameHints,
  out: Operation[]
) {
  const renamed = hints.columns.get(next.name)
  /** The table a column referenced, under its new name when that table is being renamed. */
  const renamedTables = new Map([...hints.tables].map(([to, from]) => [from, to]))
  const refTarget = (c: ColumnSpec) => c.references && (renamedTables.get(c.references.table) ?? c.references.table)
  const oldColumns = new Map(old.columns.map((c) => [c.name, c]))
  const used = new Set<string>()
  for (const column of next.columns) {
    const source = renamed?.get(column.name) ?? column.name
    const before = oldColumns.get(source)
    if (!before) {
      out.push({
        op: 'addColumn',
        table: next.name,
        column,
        risks: column.nullable
          ? undefined
          : [{ kind: 'needsValue', table: old.name, what: `adding mandatory column ${next.name}.${column.name}` }],
      })
      continue
    }
    used.add(source)
    if (source !== column.name) out.push({ op: 'renameColumn', table: next.name, from: source, to: column.name })
    const typeChanged = !sameColumnType(before.type, column.type)
    const refChanged = refTarget(before) !== column.references?.table
    const oldConstraint = before.references?.constraint
    const newConstraint = column.references?.constraint
    const constraintRenamed = !refChanged && !!oldConstraint && !!newConstraint && oldConstraint !== newConstraint
    if (constraintRenamed) {
      out.push({ op: 'renameConstraint', table: next.name, from: oldConstraint, to: newConstraint })
    }
    if (!typeChanged && before.nullable === column.nullable && !refChanged) continue
    const what = `changing ${next.name}.${column.name}`
    const risks: Risk[] = []
    if (typeChanged) {
      const change = classifyTypeChange(before.type, column.type)
      if (change === 'truncate') {
        risks.push({ kind: 'truncate', table: old.name, column: source, length: column.type.length ?? 255, what })
      } else if (change === 'convert') {
        risks.push({ kind: 'values', table: old.name, column: source, what: `${what} from ${before.type.kind} to ${column.type.kind}` })
      }
    } else if (refChanged) {
      risks.push({ kind: 'values', table: old.name, column: source, what: `${what} to reference ${column.references?.table}` })
    }
    if (before.nullable && !column.nullable) {
      risks.push({ kind: 'nulls', table: old.name, column: source, what: `making ${next.name}.${column.name} mandatory` })
    }
    // `from` as it will be when this operation runs: renamed column, table and constraint.
    const from: ColumnSpec = { ...before, name: column.name }
    if (before.references) {
      from.references = {
        ...before.references,
        table: refTarget(before)!,
        constraint: constraintRenamed ? newConstraint! : before.references.constraint,
      }
    }
    out.push({ op: 'alterColumn', table: next.name, from, to: column, risks })
  }
  for (const column of old.columns) {
    if (used.has(column.name)) continue
    out.push({
      op: 'dropColumn',
      table: next.name,
      column,
      risks: [{ kind: 'values', table: old.name, column: column.name, what: `dropping column ${old.name}.${column.name}` }],
    })
  }
}
