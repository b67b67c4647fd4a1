/**
 * `app:import`: parse -> structural validation -> merge with the stored model -> semantic
 * validation (JSON paths) -> settings, clients, messages, roles and users checks -> apply (plan,
 * guard, one transaction with the model, the settings, the clients, the stored translations,
 * the roles and the users).
 */
import { readFile } from 'node:fs/promises'
import { extname } from 'node:path'
import type { Database } from '@adonisjs/lucid/database'
import { parseDocumentText, validateDocument } from './document.js'
import { mergeDocument } from './merge.js'
import { renameConflicts } from './rename_conflicts.js'
import { loadModelDefinition } from '../metadata/store.js'
import { normalizeModel } from '../metadata/normalize.js'
import { validateModel, type Problem } from '../metadata/validate.js'
import { applyModel, type ApplyResult } from '../metadata/model_service.js'
import { describeSettingsChanges, writeSettings } from '../../settings/property_resolver.js'
import { coerce, findProperty } from '../../settings/properties.js'
import {
  applyClientEntries,
  checkClientEntries,
  planClientEntries,
  type GeneratedSecret,
} from '../../oauth/client_definitions.js'
import { checkMessages, describeMessagesChanges, writeMessages } from '../../i18n/definition.js'
import { Model } from '../metadata/model.js'
import { applyRoles, planRoles } from '../../security/roles_definition.js'
import { applyUsers, planUsers } from '../../oauth/user_definitions.js'

/** The apply result, plus the client secrets this import generated (shown once). */
export interface ImportResult extends ApplyResult {
  secrets?: GeneratedSecret[]
}

/** A client secret in stored settings would sit in the database in clear. */
const CLIENT_SECRET_SETTING = /^svc\.authserver\.client\.[^.]+\.client-secret$/

export interface ImportOptions {
  dryRun?: boolean
  allowDataLoss?: boolean
  source?: string
  onProgress?: (message: string) => void
}

export function formatOf(file: string): 'json' | 'yaml' {
  return ['.yaml', '.yml'].includes(extname(file).toLowerCase()) ? 'yaml' : 'json'
}

function invalid(problems: Problem[]): ImportResult {
  return { status: 'invalid', changes: [], steps: [], problems, refusals: [], version: 0 }
}

export async function importFile(
  db: Database,
  file: string,
  options: ImportOptions = {}
): Promise<ImportResult> {
  const text = await readFile(file, 'utf8')
  return importText(db, text, formatOf(file), { source: `app:import ${file}`, ...options })
}

export async function importText(
  db: Database,
  text: string,
  format: 'json' | 'yaml',
  options: ImportOptions = {}
): Promise<ImportResult> {
  let raw: unknown
  try {
    raw = parseDocumentText(text, format)
  } catch (error) {
    return invalid([
      { path: '$', message: `not valid ${format.toUpperCase()}: ${(error as Error).message}` },
    ])
  }
  return importDocument(db, raw, options)
}

export async function importDocument(
  db: Database,
  raw: unknown,
  options: ImportOptions = {}
): Promise<ImportResult> {
  const progress = options.onProgress ?? (() => {})
  const { document, problems } = await validateDocument(raw)
  if (!document) return invalid(problems)
  progress(
    `document: ${document.entities.length} entities, ${document.enums.length} enums, ${document.fetchPlans.length} fetch plans`
  )

  const current = await loadModelDefinition(db.connection())
  const merged = mergeDocument(current, document)
  const mergedModel = normalizeModel(merged.model)
  // Unknown keys and unsupported sections (in `problems`) are reported with the semantic ones.
  const semantic = [
    ...problems,
    ...renameConflicts(current, document.entities),
    ...validateModel(mergedModel, merged.paths),
    ...checkMessages(document.messages, mergedModel),
  ]
  for (const [key, value] of Object.entries(document.settings)) {
    const definition = findProperty(key)
    if (!definition)
      semantic.push({ path: `$.settings['${key}']`, message: `unknown property '${key}'` })
    else if (
      CLIENT_SECRET_SETTING.test(key) &&
      value !== null &&
      !/^\{sha256\}/.test(String(value))
    )
      semantic.push({
        path: `$.settings['${key}']`,
        message: `a client secret is not stored in clear: use the clients section (clientSecret is stored hashed), the environment, or '{sha256}<hex digest>'`,
      })
    else if (value !== null) {
      try {
        coerce(definition, value)
      } catch (error) {
        semantic.push({ path: `$.settings['${key}']`, message: (error as Error).message })
      }
    }
  }
  const clients = checkClientEntries(document.clients ?? [])
  semantic.push(...clients.problems)
  const clientPlan = await planClientEntries(
    db.connection(),
    document.clients,
    clients.settings,
    document.prune
  )
  semantic.push(...clientPlan.problems)
  // Roles are checked against the model as this import leaves it, users against those roles.
  const rolePlan = await planRoles(
    db.connection(),
    new Model(0, mergedModel),
    document.resourceRoles,
    document.rowLevelRoles,
    document.prune
  )
  semantic.push(...rolePlan.problems)
  const userPlan = await planUsers(db.connection(), document.users, rolePlan.codes)
  semantic.push(...userPlan.problems)
  if (semantic.length) return invalid(semantic)

  const extraChanges = [
    ...(await describeSettingsChanges(db.connection(), document.settings)),
    ...clientPlan.changes,
    ...rolePlan.changes,
    ...userPlan.changes,
    ...(await describeMessagesChanges(
      db.connection(),
      document.messages,
      document.prune,
      mergedModel,
      merged.renames
    )),
  ]
  let extraWritten = false
  let secrets: GeneratedSecret[] = []
  const result = await applyModel(db, merged.model, {
    dryRun: options.dryRun,
    allowDataLoss: options.allowDataLoss,
    hints: merged.hints,
    source: options.source ?? 'import',
    onProgress: progress,
    alsoInTransaction: async (trx) => {
      const settingsWritten = await writeSettings(trx, document.settings)
      const written = await applyClientEntries(
        trx,
        document.clients,
        clients.settings,
        document.prune
      )
      secrets = written.secrets
      // Also when the document has no messages section: translations follow renamed and
      // removed model elements.
      const messagesWritten = await writeMessages(
        trx,
        document.messages,
        document.prune,
        mergedModel,
        merged.renames
      )
      // Roles before users: assignments name roles this import may create.
      const rolesWritten = await applyRoles(trx, rolePlan)
      const usersWritten = await applyUsers(trx, userPlan)
      return (extraWritten =
        settingsWritten || written.changed || messagesWritten || rolesWritten || usersWritten)
    },
  })
  // applyModel only knows the model: a settings- or clients-only import came back 'unchanged'
  // ("the database already matches the document") although rows were written, and dry runs did
  // not list them.
  if (extraChanges.length === 0 || !['dry-run', 'applied', 'unchanged'].includes(result.status))
    return result
  const changes = [...result.changes, ...extraChanges]
  if (result.status === 'dry-run') return { ...result, changes }
  if (result.status === 'unchanged' && !extraWritten)
    return options.dryRun ? { ...result, status: 'dry-run', changes } : result
  // Committed: the generated secrets are in this result and nowhere else.
  return { ...result, status: 'applied', changes, ...(secrets.length ? { secrets } : {}) }
}
