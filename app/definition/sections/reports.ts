/**
 * `reports` (app/reports/definition.ts): report definitions with their bands, parameters,
 * value formats and templates (files as `base64:...`), checked against the model as the change
 * leaves it and the resource roles that exist. Absent: stored reports are left alone; with
 * prune, unnamed ones are removed.
 */
import vine from '@vinejs/vine'
import { Model } from '#engine/metadata/model'
import { applyReports, planReports } from '#reports/definition'
import { loadReports, readTemplateFile, templateFiles } from '#reports/store'
import { reportShape } from '#reports/shape'
import engine from '#engine/services/engine'
import type { DefinitionSection } from '../section.js'

const report = vine.object({
  id: vine.string().trim().minLength(1),
  name: vine.string().trim().minLength(1).maxLength(255),
  code: vine.string().trim().minLength(1).maxLength(255).optional(),
  group: vine
    .object({
      id: vine.string().trim(),
      title: vine.string().trim().minLength(1).maxLength(255),
      code: vine.string().optional(),
      localeNames: vine.record(vine.string()).optional(),
    })
    .optional(),
  description: vine.string().maxLength(500).optional(),
  localeNames: vine.record(vine.string()).optional(),
  restAccess: vine.boolean({ strict: true }).optional(),
  roles: vine.array(vine.string()).optional(),
  inputParameters: vine.array(vine.any()).optional(),
  bands: vine.array(vine.any()).optional(),
  valueFormats: vine.array(vine.any()).optional(),
  templates: vine.array(vine.any()).optional(),
})

export const reportsSection: DefinitionSection = {
  name: 'reports',
  keys: {
    reports: { schema: vine.array(report), shape: reportShape, element: (r) => String(r.name) },
  },

  async plan(ctx) {
    const roles = ctx.roleCodes?.resource
    const plan = await planReports(
      ctx.trx,
      new Model(0, ctx.model!.definition),
      ctx.document.reports,
      ctx.pruned('reports'),
      roles,
      ctx.model!.renames
    )
    const storage = String(engine.properties.get('svc.core.default-file-storage') ?? 'fs')
    return {
      problems: plan.problems,
      changes: plan.changes,
      apply: async (trx) => ({ changed: await applyReports(trx, plan, storage) }),
    }
  },

  async export(client) {
    const reports = await loadReports(client)
    if (!reports.length) return {}
    const out = []
    for (const r of reports) {
      const files = await templateFiles(client, r.id)
      const templates = []
      for (const t of r.templates) {
        const key = files.get(t.code)?.fileKey
        const bytes = key ? await readTemplateFile(key) : null
        templates.push(bytes ? { ...t, file: `base64:${bytes.toString('base64')}` } : t)
      }
      out.push({ ...r, templates })
    }
    return { reports: out }
  },
}
