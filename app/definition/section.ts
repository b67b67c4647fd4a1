/**
 * A section of the application definition document, contributed by the wing that owns its rows
 * (app/definition/README.md). The orchestrator (./apply.ts) validates the document's structure
 * with every section's schema, then plans each section in registry order inside one
 * transaction, and applies them all (or none) with one definition version bump and one audit
 * entry.
 */
import type { QueryClientContract, TransactionClientContract } from '@adonisjs/lucid/types/database'
import type { ModelDefinition } from '#engine/metadata/types'
import type { Problem } from '#engine/metadata/validate'
import type { Renames } from '#engine/definition/renames'
import type { Refusal } from '#engine/schema/guard'
import type { CompiledStep } from '#engine/schema/dialects/dialect'
import type { RoleCodes } from '#security/roles_definition'
import type { GeneratedSecret } from '#oauth/client_definitions'
import type { DefinitionDocument } from './document.js'

export type { Problem } from '#engine/metadata/validate'

/** What sections share while one change is planned (filled in registry order). */
export interface PlanContext {
  /** The change's transaction: plans read what it sees; a dry run rolls it back. */
  trx: TransactionClientContract
  document: DefinitionDocument
  /** Whether `prune` applies to the section of this name (the document's flag, or per section). */
  pruned(section: string): boolean
  source: string
  onProgress: (message: string) => void
  /** Set by the `model` section: the model as the change leaves it, and its renames. */
  model?: { definition: ModelDefinition; renames: Renames }
  /** Set by the `roles` section: the role codes that exist once the change is applied. */
  roleCodes?: RoleCodes
}

export interface SectionOutcome {
  changed: boolean
  secrets?: GeneratedSecret[]
  modelVersion?: number
}

export interface SectionPlan {
  problems: Problem[]
  /** One line per change, as a dry run prints them. */
  changes: string[]
  /** DDL of the change (the model section). */
  steps?: CompiledStep[]
  /** Data-loss risks; overridable ones are allowed by `allowDataLoss`. */
  refusals?: Refusal[]
  /** Writes the planned change inside the same transaction (never called on problems). */
  apply(trx: TransactionClientContract): Promise<SectionOutcome>
}

/** The shape checks of a section's keys: unknown properties, at any depth, with their path. */
export type ShapeCheck = (value: unknown, path: string, out: Problem[]) => void

export interface DefinitionSection {
  /** The section's name in audit entries and in `prune` lists (`model`, `clients`, ...). */
  name: string
  /** Document keys this section reads, each with its VineJS schema and its shape check. */
  keys: Record<string, { schema: any; shape?: ShapeCheck; element?: (item: any) => string }>
  plan(ctx: PlanContext): Promise<SectionPlan>
  /** The stored state as document keys (a key is left out when it would be empty). */
  export(client: QueryClientContract): Promise<Record<string, unknown>>
}
