/**
 * The pure DDL planner: (current schema, wanted schema, rename hints, inspected database)
 * -> ordered operations, each carrying the data-loss risk the guard must check. No I/O here.
 */
import type { ColumnSpec, IndexSpec, PhysicalSchema, TableSpec } from './physical.js'
import { sameColumnType } from './physical.js'
import type { Operation, RenameHints, Risk } from './operations.js'
import { classifyTypeChange, textLimit } from './type_change.js'

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
  return (
    a.unique === b.unique && a.whereNull === b.whereNull && a.columns.join() === b.columns.join()
  )
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
      if (ref && names.has(ref) && ref !== t.name)
        visit(
          tables.find((x) => x.name === ref)!,
          stack
        )
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
  const renames: { from: string; to: string }[] = []
  const creates: TableSpec[] = []
  const columnOps: Operation[] = []
  const createIndexes: Operation[] = []
  const matched = new Set<string>()

  for (const next of wanted.values()) {
    const oldName = hints.tables.get(next.name) ?? next.name
    const old = current.get(oldName)
    if (!old) {
      if (inspected.tables.has(next.name)) {
        conflicts.push(
          `table '${next.name}' (${next.owner}) already exists in the database but not in the model`
        )
      }
      creates.push(next)
      continue
    }
    matched.add(oldName)
    if (oldName !== next.name) {
      if (inspected.tables.has(next.name) && !current.has(next.name)) {
        conflicts.push(`cannot rename '${oldName}' to '${next.name}': that table already exists`)
      }
      renames.push({ from: oldName, to: next.name })
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
        createIndexes.push({
          op: 'createIndex',
          table: next.name,
          index,
          risks: uniqueRisk(next, index, old, hints),
        })
      }
    }
  }

  const drops: Operation[] = byDependencies(
    [...current.values()].filter((t) => !matched.has(t.name))
  )
    .reverse()
    .map((table) => ({
      op: 'dropTable' as const,
      table,
      risks: [
        {
          kind: 'rows' as const,
          table: table.name,
          what: `dropping ${table.owner} (table ${table.name})`,
        },
      ],
    }))

  return {
    operations: [
      ...dropIndexes,
      ...drops,
      ...renameSafely(renames, (from, to) => ({ op: 'renameTable', from, to })),
      ...byDependencies(creates).map((table) => ({ op: 'createTable' as const, table })),
      ...columnOps,
      ...createIndexes,
    ],
    conflicts,
  }
}

/**
 * Renames that must behave as if they happened at once: when a new name is still held by an
 * item that is renamed away in the same plan (a swap, or a chain a -> b, b -> c), each rename
 * goes through a temporary name first, which no model name can use (`__mg` is reserved).
 */
function renameSafely(
  renames: { from: string; to: string }[],
  make: (from: string, to: string) => Operation
): Operation[] {
  const sources = new Set(renames.map((r) => r.from))
  if (!renames.some((r) => sources.has(r.to))) return renames.map((r) => make(r.from, r.to))
  const temp = (i: number) => `__mg_rename_${i}`
  return [
    ...renames.map((r, i) => make(r.from, temp(i))),
    ...renames.map((r, i) => make(temp(i), r.to)),
  ]
}

function uniqueRisk(next: TableSpec, index: IndexSpec, old: TableSpec, hints: RenameHints) {
  if (!index.unique) return undefined
  // The guard queries the data as it is now, so columns are mapped back to their old names (a
  // column renamed in the same plan can already hold duplicates). A column added by the plan
  // holds only NULLs, which never collide.
  const renamed = hints.columns.get(next.name)
  const oldColumns = new Set(old.columns.map((c) => c.name))
  const columns = index.columns.map((c) => renamed?.get(c) ?? c)
  if (!columns.every((c) => oldColumns.has(c))) return undefined
  // The soft-delete column may be added by this very plan (softDelete trait switched on): then
  // every existing row is live and all of them must be unique.
  const whereNull = index.whereNull && oldColumns.has(index.whereNull) ? index.whereNull : undefined
  return [
    {
      kind: 'duplicates' as const,
      table: old.name,
      columns,
      whereNull,
      what: `unique index on ${next.name}(${index.columns.join(', ')})`,
    },
  ]
}

function diffColumns(old: TableSpec, next: TableSpec, hints: RenameHints, out: Operation[]) {
  const renamed = hints.columns.get(next.name)
  /** The table a column referenced, under its new name when that table is being renamed. */
  const renamedTables = new Map([...hints.tables].map(([to, from]) => [from, to]))
  const refTarget = (c: ColumnSpec) =>
    c.references && (renamedTables.get(c.references.table) ?? c.references.table)
  const oldColumns = new Map(old.columns.map((c) => [c.name, c]))
  const used = new Set<string>()
  const columnRenames: { from: string; to: string }[] = []
  const constraintRenames: { from: string; to: string }[] = []
  const changes: Operation[] = []
  for (const column of next.columns) {
    const source = renamed?.get(column.name) ?? column.name
    const before = oldColumns.get(source)
    if (!before) {
      changes.push({
        op: 'addColumn',
        table: next.name,
        column,
        // A NOT NULL column with a default (e.g. `version` of the versioned trait) fills existing
        // rows itself; only one without a default needs a value the table cannot provide.
        risks:
          column.nullable || column.defaultValue !== undefined
            ? undefined
            : [
                {
                  kind: 'needsValue',
                  table: old.name,
                  what: `adding mandatory column ${next.name}.${column.name}`,
                },
              ],
      })
      continue
    }
    used.add(source)
    if (source !== column.name) columnRenames.push({ from: source, to: column.name })
    const typeChanged = !sameColumnType(before.type, column.type)
    const refChanged = refTarget(before) !== column.references?.table
    const oldConstraint = before.references?.constraint
    const newConstraint = column.references?.constraint
    const constraintRenamed =
      !refChanged && !!oldConstraint && !!newConstraint && oldConstraint !== newConstraint
    if (constraintRenamed) constraintRenames.push({ from: oldConstraint, to: newConstraint })
    if (!typeChanged && before.nullable === column.nullable && !refChanged) continue
    const what = `changing ${next.name}.${column.name}`
    const risks: Risk[] = []
    // A column that now references another table loses its values (the dialects clear them:
    // they are ids of rows of the old target), whatever the type change says. Dropping only the
    // foreign key (relation -> plain attribute) keeps the values.
    const retargeted = refChanged && !!column.references
    if (retargeted) {
      const target = column.references!.table
      const lost = `${what} to reference ${target}`
      risks.push({ kind: 'values', table: old.name, column: source, what: lost })
      if (!column.nullable) {
        const mandatory = `retargeting mandatory relation column ${next.name}.${column.name}`
        risks.push({ kind: 'needsValue', table: old.name, what: mandatory })
      }
    } else if (typeChanged) {
      const change = classifyTypeChange(before.type, column.type)
      if (change === 'truncate') {
        risks.push({
          kind: 'truncate',
          table: old.name,
          column: source,
          length: textLimit(column.type)!,
          what,
        })
      } else if (change === 'convert') {
        risks.push({
          kind: 'values',
          table: old.name,
          column: source,
          what: `${what} from ${before.type.kind} to ${column.type.kind}`,
        })
      }
    }
    if (before.nullable && !column.nullable) {
      risks.push({
        kind: 'nulls',
        table: old.name,
        column: source,
        what: `making ${next.name}.${column.name} mandatory`,
      })
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
    changes.push({ op: 'alterColumn', table: next.name, from, to: column, risks })
  }
  const drops: Operation[] = []
  for (const column of old.columns) {
    if (used.has(column.name)) continue
    drops.push({
      op: 'dropColumn',
      table: next.name,
      column,
      risks: [
        {
          kind: 'values',
          table: old.name,
          column: column.name,
          what: `dropping column ${old.name}.${column.name}`,
        },
      ],
    })
  }
  // Drops first: a column (or its foreign-key constraint) may be renamed to the name of one that
  // is dropped in the same plan. Renames before the other changes, which use the new names.
  out.push(
    ...drops,
    ...renameSafely(columnRenames, (from, to) => ({
      op: 'renameColumn',
      table: next.name,
      from,
      to,
    })),
    ...renameSafely(constraintRenames, (from, to) => ({
      op: 'renameConstraint',
      table: next.name,
      from,
      to,
    })),
    ...changes
  )
}
