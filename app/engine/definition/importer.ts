/**
 * `app:import`: parse -> structural validation -> merge with the stored model -> semantic
 * validation (JSON paths) -> settings check -> apply (plan, guard, one transaction).
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

export interface ImportOptions {
  dryRun?: boolean
  allowDataLoss?: boolean
  source?: string
  onProgress?: (message: string) => void
}

export function formatOf(file: string): 'json' | 'yaml' {
  return ['.yaml', '.yml'].includes(extname(file).toLowerCase()) ? 'yaml' : 'json'
}

function invalid(problems: Problem[]): ApplyResult {
  return { status: 'invalid', changes: [], steps: [], problems, refusals: [], version: 0 }
}

export async function importFile(
  db: Database,
  file: string,
  options: ImportOptions = {}
): Promise<ApplyResult> {
  const text = await readFile(file, 'utf8')
  return importText(db, text, formatOf(file), { source: `app:import ${file}`, ...options })
}

export async function importText(
  db: Database,
  text: string,
  format: 'json' | 'yaml',
  options: ImportOptions = {}
): Promise<ApplyResult> {
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
): Promise<ApplyResult> {
  const progress = options.onProgress ?? (() => {})
  const { document, problems } = await validateDocument(raw)
  if (!document) return invalid(problems)
  progress(
    `document: ${document.entities.length} entities, ${document.enums.length} enums, ${document.fetchPlans.length} fetch plans`
  )

  const current = await loadModelDefinition(db.connection())
  const merged = mergeDocument(current, document)
  // Unknown keys and unsupported sections (in `problems`) are reported with the semantic ones.
  const semantic = [
    ...problems,
    ...renameConflicts(current, document.entities),
    ...validateModel(normalizeModel(merged.model), merged.paths),
  ]
  for (const [key, value] of Object.entries(document.settings)) {
    const definition = findProperty(key)
    if (!definition)
      semantic.push({ path: `$.settings['${key}']`, message: `unknown property '${key}'` })
    else if (value !== null) {
      try {
        coerce(definition, value)
      } catch (error) {
        semantic.push({ path: `$.settings['${key}']`, message: (error as Error).message })
      }
    }
  }
  if (semantic.length) return invalid(semantic)

  const settingChanges = await describeSettingsChanges(db.connection(), document.settings)
  let settingsWritten = false
  const result = await applyModel(db, merged.model, {
    dryRun: options.dryRun,
    allowDataLoss: options.allowDataLoss,
    hints: merged.hints,
    source: options.source ?? 'import',
    onProgress: progress,
    alsoInTransaction: async (trx) =>
      (settingsWritten = await writeSettings(trx, document.settings)),
  })
  // applyModel only knows the model: a settings-only import came back 'unchanged' ("the database
  // already matches the document") although settings were written, and dry runs did not list them.
  if (settingChanges.length === 0 || !['dry-run', 'applied', 'unchanged'].includes(result.status))
    return result
  const changes = [...result.changes, ...settingChanges]
  if (result.status === 'unchanged') {
    if (settingsWritten) return { ...result, status: 'applied', changes }
    return options.dryRun ? { ...result, status: 'dry-run', changes } : result
  }
  return { ...result, changes }
}
