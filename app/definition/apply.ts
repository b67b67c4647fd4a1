/**
 * The one door for changing the application definition: `app:import`, the admin API and the
 * demo import all come here. Structure first (every problem with its JSON path), then, inside one
 * transaction, every section plans against what the transaction sees; on any problem, a data-loss
 * risk that is not allowed, a stale expected version or a dry run, the transaction rolls back and
 * nothing changed. Otherwise every section writes its part, the definition version is bumped once
 * and one audit entry records who changed what (before/after of each element).
 */
import type { Database } from '@adonisjs/lucid/database'
import { bumpVersion, readVersion } from '#changes/versions'
import { withSchemaTransaction } from '#engine/schema/executor'
import { databaseProblem, isDatabaseError } from '#engine/metadata/model_service'
import { databaseFailure } from '#exceptions/database_errors'
import type { CompiledStep } from '#engine/schema/dialects/dialect'
import type { Refusal } from '#engine/schema/guard'
import type { GeneratedSecret } from '#oauth/client_definitions'
import type { PlanContext, Problem, SectionPlan } from './section.js'
import { validateDocument } from './document.js'
import { SECTIONS } from './sections/index.js'
import { diffExports, writeAudit, type Author } from './audit.js'

export interface ApplyDefinitionOptions {
  dryRun?: boolean
  allowDataLoss?: boolean
  /** Where the change comes from, for the changelog and the audit trail (`app:import x.json`). */
  source?: string
  author?: Author
  onProgress?: (message: string) => void
  /** Prune only these sections (`model`, `roles`, `clients`, ...) instead of the document's flag. */
  pruneSections?: readonly string[]
  /** The definition version the caller last saw (If-Match): another one is 'stale'. */
  expectedVersion?: number
}

export interface DefinitionResult {
  status: 'applied' | 'unchanged' | 'dry-run' | 'invalid' | 'refused' | 'failed' | 'stale'
  changes: string[]
  steps: CompiledStep[]
  problems: Problem[]
  /** The data-loss risks that are not allowed: the change is refused. */
  refusals: Refusal[]
  /** Every data-loss risk of the change, allowed or not (with the rows it affects). */
  risks: Refusal[]
  /** The model version after the change (or the current one). */
  version: number
  /** The definition version after the change (or the current one): the admin API's ETag. */
  definitionVersion: number
  /** Client secrets this change generated: shown once, stored nowhere in clear. */
  secrets?: GeneratedSecret[]
  auditId?: number
}

const ROLLBACK = Symbol('rollback')
const SYSTEM: Author = { kind: 'system', name: 'system' }

function result(status: DefinitionResult['status'], rest: Partial<DefinitionResult> = {}) {
  return {
    status,
    changes: [],
    steps: [],
    problems: [],
    refusals: [],
    risks: [],
    version: 0,
    definitionVersion: 0,
    ...rest,
  } as DefinitionResult
}

export async function applyDefinition(
  db: Database,
  raw: unknown,
  options: ApplyDefinitionOptions = {}
): Promise<DefinitionResult> {
  const progress = options.onProgress ?? (() => {})
  const { document, problems: structural } = await validateDocument(raw)
  if (!document) return result('invalid', { problems: structural })
  progress(
    `document: ${document.entities.length} entities, ${document.enums.length} enums, ${document.fetchPlans.length} fetch plans`
  )
  const source = options.source ?? 'import'
  let outcome = result('invalid')
  try {
    await withSchemaTransaction(db, async (trx) => {
      const version = await readVersion(trx, 'model')
      const definitionVersion = await readVersion(trx, 'definition')
      outcome = result('invalid', { version, definitionVersion })
      if (options.expectedVersion !== undefined && options.expectedVersion !== definitionVersion) {
        outcome.status = 'stale'
        throw ROLLBACK
      }
      const ctx: PlanContext = {
        trx,
        document,
        pruned: (name) =>
          options.pruneSections ? options.pruneSections.includes(name) : document.prune,
        source,
        onProgress: progress,
      }
      const plans: [string, SectionPlan][] = []
      for (const section of SECTIONS) plans.push([section.name, await section.plan(ctx)])
      const all = plans.map(([, p]) => p)
      outcome.problems = [...structural, ...all.flatMap((p) => p.problems)]
      outcome.changes = all.flatMap((p) => p.changes)
      outcome.steps = all.flatMap((p) => p.steps ?? [])
      if (outcome.problems.length) throw ROLLBACK
      outcome.risks = all.flatMap((p) => p.refusals ?? [])
      outcome.refusals = outcome.risks.filter((r) => !(r.overridable && options.allowDataLoss))
      if (outcome.refusals.length) {
        outcome.status = 'refused'
        throw ROLLBACK
      }
      const empty = outcome.changes.length === 0 && outcome.steps.length === 0
      outcome.status = empty ? 'unchanged' : 'dry-run'
      if (empty || options.dryRun) throw ROLLBACK

      const touched = SECTIONS.filter((_, i) => plans[i][1].changes.length > 0)
      const exportAll = async () => {
        const parts: Record<string, unknown>[] = []
        for (const section of touched) parts.push(await section.export(trx))
        return Object.assign({}, ...parts)
      }
      const before = await exportAll()
      const secrets: GeneratedSecret[] = []
      for (const [, plan] of plans) {
        const done = await plan.apply(trx)
        secrets.push(...(done.secrets ?? []))
        if (done.modelVersion !== undefined) outcome.version = done.modelVersion
      }
      outcome.definitionVersion = await bumpVersion(trx, 'definition')
      outcome.auditId = await writeAudit(trx, {
        author: options.author ?? SYSTEM,
        source,
        definitionVersion: outcome.definitionVersion,
        changes: outcome.changes,
        elements: diffExports(before, await exportAll()),
      })
      outcome.status = 'applied'
      if (secrets.length) outcome.secrets = secrets
    })
  } catch (error) {
    if (error === ROLLBACK) return outcome
    // A database that is unreachable or timed out did not refuse the change: the HTTP layer
    // answers 503 (retry later), not 409 with the connection error's text.
    if (!isDatabaseError(error) || databaseFailure(error)) throw error
    return { ...outcome, status: 'failed', problems: [databaseProblem(error)] }
  }
  return outcome
}

/** The stored application as a definition document (every section's export). */
export async function exportDefinition(db: Database): Promise<Record<string, unknown>> {
  const client = db.connection()
  const parts: Record<string, unknown>[] = []
  // Sequential: the sections may share one connection.
  for (const section of SECTIONS) parts.push(await section.export(client))
  return { formatVersion: 1, ...Object.assign({}, ...parts) }
}
