/**
 * The `reports` section's plan and apply (app/definition/sections/reports.ts adapts it): the
 * document's reports against the stored ones, checked against the model as the change leaves
 * it. Template files given as `base64:...` are written to the file storage, content-addressed
 * (`reports/<sha256>.<ext>`), when the change applies; a template without `file` keeps the
 * stored file of the same code, `file: null` removes it.
 */
import type { QueryClientContract } from '@adonisjs/lucid/types/database'
import type { Model } from '#engine/metadata/model'
import type { Problem } from '#engine/metadata/validate'
import type { Renames } from '#engine/definition/renames'
import { checkReport } from './check.js'
import { followReport } from './follow.js'
import {
  loadReports,
  normalizeReport,
  sha256,
  templateFiles,
  templateKey,
  writeTemplateFile,
} from './store.js'
import type { ReportDefinition, ReportTemplate } from './types.js'

export type ReportEntry = Record<string, any>

const EXTENSIONS: Record<string, string> = {
  XLSX: 'xlsx',
  DOCX: 'docx',
  HTML: 'html',
  PDF: 'html',
  CSV: 'csv',
  JSON: 'json',
}

interface PlannedReport {
  report: ReportDefinition
  /** New template files by code: the bytes to store. */
  files: Map<string, Buffer>
  /** Stored storage keys of kept files by code. */
  keys: Map<string, string | undefined>
}

export interface ReportsPlan {
  problems: Problem[]
  changes: string[]
  save: PlannedReport[]
  remove: string[]
}

/** Template entries with `file` read: sha256/size/fileName from the bytes, or kept from `stored`. */
function readTemplates(
  entry: ReportEntry,
  stored: Map<string, ReportTemplate & { fileKey?: string }>,
  path: string,
  problems: Problem[]
) {
  const files = new Map<string, Buffer>()
  const keys = new Map<string, string | undefined>()
  const templates = (Array.isArray(entry.templates) ? entry.templates : []).map(
    (raw: any, i: number) => {
      const { file, ...t } = raw ?? {}
      const before = stored.get(t.code)
      const keep = () => {
        keys.set(t.code, before!.fileKey)
        return {
          ...t,
          fileName: t.fileName ?? before!.fileName,
          sha256: before!.sha256,
          size: before!.size,
        }
      }
      if (file === undefined) {
        if (before?.sha256) return keep()
        delete t.sha256
        delete t.size
        return t
      }
      if (file === null) return { ...t, sha256: undefined, size: undefined }
      if (typeof file !== 'string' || !file.startsWith('base64:')) {
        problems.push({
          path: `${path}.templates[${i}].file`,
          message: 'must be "base64:<bytes>" or null',
        })
        return t
      }
      const bytes = Buffer.from(file.slice('base64:'.length), 'base64')
      if (before?.sha256 === sha256(bytes)) return keep()
      files.set(t.code, bytes)
      const fileName = t.fileName ?? `${t.code}.${EXTENSIONS[t.outputType] ?? 'bin'}`
      return { ...t, fileName, sha256: sha256(bytes), size: bytes.length }
    }
  )
  return { templates, files, keys }
}

export async function planReports(
  client: QueryClientContract,
  model: Model,
  entries: ReportEntry[] | undefined,
  prune: boolean,
  roles?: ReadonlySet<string>,
  renames?: Renames
): Promise<ReportsPlan> {
  const problems: Problem[] = []
  const changes: string[] = []
  const save: PlannedReport[] = []
  const stored = new Map((await loadReports(client)).map((r) => [r.id, r]))
  const named = new Set<string>()
  const names = new Map<string, string>()
  const namePaths = new Map<string, string>()
  const groups = new Map<string, string>()
  for (const r of stored.values()) if (r.group) groups.set(r.group.title, r.group.id)
  // Codes of stored reports the document leaves alone stay taken (REST runs by code).
  const codes = new Map<string, string>()
  if (!(entries && prune)) {
    const ids = new Set((entries ?? []).map((e) => String(e.id ?? '').toLowerCase()))
    for (const r of stored.values()) if (r.code && !ids.has(r.id)) codes.set(r.code, r.id)
  }
  for (const [i, entry] of (entries ?? []).entries()) {
    const path = `$.reports[${i}]`
    const id = String(entry.id ?? '').toLowerCase()
    if (named.has(id)) {
      problems.push({ path: `${path}.id`, message: `duplicate report id '${id}'` })
      continue
    }
    named.add(id)
    const files = stored.has(id) ? await templateFiles(client, id) : new Map()
    const read = readTemplates(entry, files, path, problems)
    const report = normalizeReport({ ...entry, templates: read.templates })
    checkReport(model, report, path, problems, roles)
    if (names.has(report.name) && names.get(report.name) !== id)
      problems.push({ path: `${path}.name`, message: `duplicate report name '${report.name}'` })
    names.set(report.name, id)
    if (report.code !== undefined) {
      if (codes.has(report.code) && codes.get(report.code) !== id)
        problems.push({ path: `${path}.code`, message: `duplicate report code '${report.code}'` })
      codes.set(report.code, id)
    }
    namePaths.set(report.name, `${path}.name`)
    if (report.group) {
      const other = groups.get(report.group.title)
      if (other && other !== report.group.id)
        problems.push({
          path: `${path}.group.title`,
          message: `group title '${report.group.title}' belongs to group ${other}`,
        })
      groups.set(report.group.title, report.group.id)
    }
    const before = stored.get(id)
    if (!before) changes.push(`report '${report.name}': created`)
    else if (JSON.stringify(before) !== JSON.stringify(report) || read.files.size)
      changes.push(`report '${report.name}': changed`)
    else continue
    save.push({ report, files: read.files, keys: read.keys })
  }
  for (const r of stored.values()) {
    if (named.has(r.id)) continue
    if (entries && prune) continue
    if (names.has(r.name))
      problems.push({
        path: namePaths.get(r.name)!,
        message: `report name '${r.name}' is taken by report ${r.id}`,
      })
    const followed = renames ? followReport(model, renames, r) : r
    const found: Problem[] = []
    checkReport(model, followed, '$', found, roles)
    if (!found.length && JSON.stringify(followed) !== JSON.stringify(r)) {
      changes.push(`report '${r.name}': follows the renames`)
      const kept = await templateFiles(client, r.id)
      save.push({
        report: followed,
        files: new Map(),
        keys: new Map([...kept].map(([code, t]) => [code, t.fileKey])),
      })
    }
    for (const p of found)
      problems.push({
        path: '$.reports',
        message: `stored report '${r.name}' (${p.path.slice(2)}): ${p.message}; change or delete the report first`,
      })
  }
  const remove = entries && prune ? [...stored.keys()].filter((id) => !named.has(id)) : []
  for (const id of remove) changes.push(`report '${stored.get(id)!.name}': deleted (prune)`)
  return { problems, changes, save, remove }
}

async function saveGroup(client: QueryClientContract, group: ReportDefinition['group']) {
  if (!group) return null
  const row = {
    title: group.title,
    code: group.code ?? null,
    locale_names: group.localeNames ? JSON.stringify(group.localeNames) : null,
  }
  const updated = await client.from('mg_report_groups').where('id', group.id).update(row)
  if (!Number(Array.isArray(updated) ? updated[0] : updated))
    await client.table('mg_report_groups').insert({ id: group.id, ...row })
  return group.id
}

/** Writes the planned reports inside the change's transaction; whether anything changed. */
export async function applyReports(
  client: QueryClientContract,
  plan: ReportsPlan,
  storage: string
) {
  for (const { report, files, keys } of plan.save) {
    const groupId = await saveGroup(client, report.group)
    const { id, name, code, restAccess, templates, ...rest } = report
    delete rest.group
    const row = {
      name,
      code: code ?? null,
      group_id: groupId,
      rest_access: restAccess,
      definition: JSON.stringify(rest),
      updated_at: new Date(),
    }
    const updated = await client.from('mg_reports').where('id', id).update(row)
    if (!Number(Array.isArray(updated) ? updated[0] : updated))
      await client.table('mg_reports').insert({ id, ...row })
    await client.from('mg_report_templates').where('report_id', id).delete()
    for (const [position, t] of templates.entries()) {
      let fileKey = keys.get(t.code)
      const bytes = files.get(t.code)
      if (bytes) {
        const key = templateKey(t.sha256!, t.fileName)
        await writeTemplateFile(storage, key, bytes)
        fileKey = `${storage}:${key}`
      }
      await client.table('mg_report_templates').insert({
        report_id: id,
        code: t.code,
        output_type: t.outputType,
        file_name: t.fileName ?? null,
        file_key: t.sha256 ? (fileKey ?? null) : null,
        sha256: t.sha256 ?? null,
        size: t.size ?? null,
        output_name_pattern: t.outputNamePattern ?? null,
        is_default: t.default === true,
        options: t.options ? JSON.stringify(t.options) : null,
        position,
      })
    }
  }
  for (const id of plan.remove) {
    await client.from('mg_report_templates').where('report_id', id).delete()
    await client.from('mg_reports').where('id', id).delete()
  }
  return plan.save.length + plan.remove.length > 0
}
