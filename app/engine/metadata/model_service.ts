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
import { diffModels } from './diff.js'
import { Model } from './model.js'
import { bumpVersion, loadModelDefinition, readVersion, writeModelDefinition } from './store.js'
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
  /** More writes that must commit or roll back together with the model (e.g. settings). */
  alsoInTransaction?: (trx: TransactionClientContract) => Promise<boolean>
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

export async function applyModel(
  db: Database,
  next: ModelDefinition,
  options: ApplyOptions = {}
): Promise<ApplyResult> {
  const progress = options.onProgress ?? (() => {})
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
      const version = await readVersion(trx, 'model')
      const current = await loadModelDefinition(trx)
      const changes = diffModels(current, wanted)
      const currentModel = new Model(version, current)
      const wantedModel = new Model(version + 1, wanted)
      const existing = await listTables(trx)
      progress(`planning ${wanted.entities.length} entities against model version ${version}`)
      const plan = planSchema(
        physicalSchema(currentModel),
        physicalSchema(wantedModel),
        options.hints ?? NO_RENAMES,
        {
          tables: existing,
        }
      )
      const steps = dialectFor(dialectOf(trx)).compile(plan.operations, {
        current: physicalSchema(currentModel),
        wanted: physicalSchema(wantedModel),
        hints: options.hints ?? NO_RENAMES,
      })
      result = { status: 'dry-run', changes, steps, problems: [], refusals: [], version }
      if (plan.conflicts.length) {
        result = {
          ...result,
          status: 'invalid',
          problems: plan.conflicts.map((m) => ({ path: '$', message: m })),
        }
        throw ROLLBACK
      }
      const refusals = (await checkDataLoss(trx, plan.operations, existing)).filter(
        (r) => !(r.overridable && options.allowDataLoss)
      )
      if (refusals.length) {
        result = { ...result, status: 'refused', refusals }
        throw ROLLBACK
      }
      if (options.dryRun) {
        if (changes.length === 0 && steps.length === 0) result = { ...result, status: 'unchanged' }
        throw ROLLBACK
      }
      const extraChanged = options.alsoInTransaction ? await options.alsoInTransaction(trx) : false
      if (changes.length === 0 && steps.length === 0) {
        result = { ...result, status: 'unchanged' }
        if (!extraChanged) throw ROLLBACK
        return
      }
      progress(`applying ${steps.length} schema step(s)`)
      await executeSteps(trx, steps, (i) =>
        progress(`  step ${i + 1}/${steps.length}: ${steps[i].description}`)
      )
      progress('writing model rows')
      await writeModelDefinition(trx, wanted)
      const newVersion = await bumpVersion(trx, 'model')
      await writeChangelog(trx, newVersion, steps, changes, options.source)
      result = { ...result, status: 'applied', version: newVersion }
    })
  } catch (error) {
    if (error === ROLLBACK) return result
    if (!isDatabaseError(error)) throw error
    // The database refused a statement (e.g. a value that cannot be converted): the whole
    // transaction rolled back; report it as a result, not a crash.
    return {
      ...result,
      status: 'failed',
      problems: [
        {
          path: '$',
          message: `the database refused the change, nothing was applied: ${databaseMessage(error)}`,
        },
      ],
    }
  }
  return result
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

function isDatabaseError(error: unknown): boolean {
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
