/**
 * Applies a new model definition: validate -> plan DDL -> data-loss guard -> one transaction with
 * the DDL, the system rows, the changelog and the model version bump. Dry runs plan and check
 * everything, then roll back. Other instances learn the new version through the change watcher.
 */
import type { Database } from '@adonisjs/lucid/database'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import type { ModelDefinition } from './types.js'
import type { Problem } from './validate.js'
import { validateModel } from './validate.js'
import { normalizeModel } from './normalize.js'
import { diffModels, type DiffRenames } from './diff.js'
import { Model } from './model.js'
import { bumpVersion, readVersion } from '#changes/versions'
import { loadModelDefinition } from './store.js'
import { writeModelDefinition } from './store_write.js'
import { physicalSchema } from '../schema/physical.js'
import { planSchema } from '../schema/planner.js'
import type { RenameHints } from '../schema/operations.js'
import { NO_RENAMES } from '../schema/operations.js'
import { checkDataLoss, type Refusal } from '../schema/guard.js'
import { dialectOf, listTables } from '../schema/inspector.js'
import { executeSteps, withSchemaTransaction } from '../schema/executor.js'
import type { CompiledStep } from '../schema/dialects/dialect.js'
import { dialectFor } from '../schema/dialects/index.js'

export interface ApplyOptions {
  dryRun?: boolean
  allowDataLoss?: boolean
  hints?: RenameHints
  /** Written to the changelog (`app:import bookstore.json`, `console`, ...). */
  source?: string
  onProgress?: (message: string) => void
}

export interface ApplyResult {
  status: 'applied' | 'unchanged' | 'dry-run' | 'invalid' | 'refused' | 'failed'
  changes: string[]
  steps: CompiledStep[]
  problems: Problem[]
  refusals: Refusal[]
  version: number
}

export class ModelApplyError extends Error {
  constructor(
    message: string,
    readonly result: ApplyResult
  ) {
    super(message)
  }
}

const ROLLBACK = Symbol('rollback')

/** A planned model change, computed inside the transaction that may then execute it. */
export interface ModelChange {
  /** The model the rows hold now (the rows of unchanged entities are kept). */
  current: ModelDefinition
  wanted: ModelDefinition
  version: number
  changes: string[]
  steps: CompiledStep[]
  /** Renames that cannot be honoured, collisions the planner found: the change is invalid. */
  conflicts: string[]
  /** Every data-loss risk, overridable or not (the caller decides what it allows). */
  refusals: Refusal[]
}

/**
 * Plans `next` against the model and the tables that `trx` sees: the model diff, the DDL, the
 * planner's conflicts and the data-loss risks. Changes nothing. `next` must be valid
 * (validateModel).
 */
export async function planModelChange(
  trx: TransactionClientContract,
  next: ModelDefinition,
  options: {
    hints?: RenameHints
    /** Entity and attribute renames of the change: the change lines name them as renames. */
    renames?: DiffRenames
    onProgress?: (message: string) => void
    /** The stored model, when the caller has just loaded it in the same transaction. */
    current?: ModelDefinition
  } = {}
): Promise<ModelChange> {
  const wanted = normalizeModel(next)
  const version = await readVersion(trx, 'model')
  const current = options.current ?? (await loadModelDefinition(trx))
  const changes = diffModels(current, wanted, options.renames)
  const existing = await listTables(trx)
  options.onProgress?.(
    `planning ${wanted.entities.length} entities against model version ${version}`
  )
  const hints = options.hints ?? NO_RENAMES
  const schemas = {
    current: physicalSchema(new Model(version, current)),
    wanted: physicalSchema(new Model(version + 1, wanted)),
  }
  const plan = planSchema(schemas.current, schemas.wanted, hints, { tables: existing })
  const steps = dialectFor(dialectOf(trx)).compile(plan.operations, { ...schemas, hints })
  const refusals = plan.conflicts.length ? [] : await checkDataLoss(trx, plan.operations, existing)
  return { current, wanted, version, changes, steps, conflicts: plan.conflicts, refusals }
}

/** True when the planned change alters nothing (no model difference, no DDL). */
export function isEmptyChange(change: ModelChange): boolean {
  return change.changes.length === 0 && change.steps.length === 0
}

/**
 * Executes a planned change inside the same transaction: the DDL, the model rows, the model
 * version bump and the schema changelog. Returns the new model version.
 */
export async function executeModelChange(
  trx: TransactionClientContract,
  change: ModelChange,
  options: { source?: string; onProgress?: (message: string) => void } = {}
): Promise<number> {
  const progress = options.onProgress ?? (() => {})
  const { steps } = change
  progress(`applying ${steps.length} schema step(s)`)
  await executeSteps(trx, steps, (i) =>
    progress(`  step ${i + 1}/${steps.length}: ${steps[i].description}`)
  )
  progress('writing model rows')
  await writeModelDefinition(trx, change.wanted, change.current)
  const newVersion = await bumpVersion(trx, 'model')
  await writeChangelog(trx, newVersion, steps, change.changes, options.source)
  return newVersion
}

/**
 * Validates, plans and applies `next` in one transaction of its own (dry runs roll back). The
 * application definition (app/definition) plans and executes model changes together with its
 * other sections instead; this is the model-only door (benchmarks, engine tests).
 */
export async function applyModel(
  db: Database,
  next: ModelDefinition,
  options: ApplyOptions = {}
): Promise<ApplyResult> {
  const wanted = normalizeModel(next)
  const empty: ApplyResult = {
    status: 'invalid',
    changes: [],
    steps: [],
    problems: [],
    refusals: [],
    version: 0,
  }
  empty.problems = validateModel(wanted)
  if (empty.problems.length) return empty

  let result: ApplyResult = empty
  try {
    await withSchemaTransaction(db, async (trx) => {
      const change = await planModelChange(trx, wanted, options)
      const { changes, steps, version } = change
      result = { status: 'dry-run', changes, steps, problems: [], refusals: [], version }
      if (change.conflicts.length) {
        result = {
          ...result,
          status: 'invalid',
          problems: change.conflicts.map((m) => ({ path: '$', message: m })),
        }
        throw ROLLBACK
      }
      const refusals = change.refusals.filter((r) => !(r.overridable && options.allowDataLoss))
      if (refusals.length) {
        result = { ...result, status: 'refused', refusals }
        throw ROLLBACK
      }
      if (options.dryRun) {
        if (isEmptyChange(change)) result = { ...result, status: 'unchanged' }
        throw ROLLBACK
      }
      if (isEmptyChange(change)) {
        result = { ...result, status: 'unchanged' }
        throw ROLLBACK
      }
      const newVersion = await executeModelChange(trx, change, options)
      result = { ...result, status: 'applied', version: newVersion }
    })
  } catch (error) {
    if (error === ROLLBACK) return result
    if (!isDatabaseError(error)) throw error
    return { ...result, status: 'failed', problems: [databaseProblem(error)] }
  }
  return result
}

/**
 * The database refused a statement (e.g. a value that cannot be converted): the whole
 * transaction rolled back; reported as a problem, not a crash.
 */
export function databaseProblem(error: unknown) {
  return {
    path: '$',
    message: `the database refused the change, nothing was applied: ${databaseMessage(error)}`,
  }
}

async function writeChangelog(
  trx: TransactionClientContract,
  version: number,
  steps: CompiledStep[],
  changes: string[],
  source = 'api'
) {
  const now = new Date()
  const rows: Record<string, unknown>[] = steps.map((s) => ({
    model_version: version,
    operation: s.kind,
    target: s.target.slice(0, 255),
    sql: s.sql.join(';\n'),
    source,
    applied_at: now,
  }))
  if (rows.length === 0) {
    rows.push({
      model_version: version,
      operation: 'metadata',
      target: changes.join('; ').slice(0, 255),
      sql: '',
      source,
      applied_at: now,
    })
  }
  for (let i = 0; i < rows.length; i += 200)
    await trx.table('mg_schema_changelog').multiInsert(rows.slice(i, i + 200))
}

export function isDatabaseError(error: unknown): boolean {
  const e = error as { code?: unknown; severity?: unknown }
  // node-postgres errors carry a SQLSTATE `code` and `severity`; better-sqlite3 codes start with SQLITE_.
  return (
    typeof e?.code === 'string' && (e.code.startsWith('SQLITE_') || typeof e.severity === 'string')
  )
}

function databaseMessage(error: unknown): string {
  // knex prefixes the failing SQL to the message: keep only the driver's own sentence.
  const message = String((error as Error).message)
  return message.includes(' - ') ? message.slice(message.lastIndexOf(' - ') + 3) : message
}
