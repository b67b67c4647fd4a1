import { randomUUID } from 'node:crypto'
import type { HttpContext } from '@adonisjs/core/http'
import engine from '#engine/services/engine'
import { definitions } from '#definition/main'
import {
  findReport,
  loadGroups,
  loadReports,
  readTemplateFile,
  templateFiles,
} from '#reports/store'
import { lastRuns, listExecutions } from '#reports/history'
import { previewBand } from '#reports/preview'
import { ReportError } from '#reports/types'
import { sendRun } from '#controllers/reports/report_http'
import { withDataManager } from '#controllers/rest/data_access'
import { adminError, changeOptions, notFound, sendResult, sendVersion } from './admin_http.js'
import { applyFromCurrent, bodyObject, client } from './people.js'

const PREFIX = '$.reports[0]'
const MAX_TEMPLATE_BYTES = 20 * 2 ** 20
const id = (ctx: HttpContext) => decodeURIComponent(String(ctx.params.id)).toLowerCase()
const key = (reportId: string) => `report '${reportId}'`

/** The raw request body (template upload), at most `limit` bytes; null when larger. */
async function rawBytes(ctx: HttpContext, limit: number): Promise<Buffer | null> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of ctx.request.request) {
    size += chunk.length
    if (size > limit) return null
    chunks.push(chunk)
  }
  return Buffer.concat(chunks)
}

/**
 * Reports one at a time (app/reports/README.md "Admin API"): list, show, create, replace,
 * merge, delete, template files, band preview, runs as the admin, and the execution history.
 * Every change goes through the definition's `reports` section (dryRun, If-Match, 422 problems
 * at paths into the body, one audit entry).
 */
export default class ReportsController {
  async index(ctx: HttpContext) {
    const reports = await loadReports(client())
    const last = await lastRuns(client())
    await sendVersion(ctx)
    return {
      reports: reports.map((r) => ({
        id: r.id,
        name: r.name,
        code: r.code ?? null,
        group: r.group ?? null,
        description: r.description ?? null,
        restAccess: r.restAccess,
        roles: r.roles,
        templates: r.templates.map((t) => ({
          code: t.code,
          outputType: t.outputType,
          default: t.default === true,
          fileName: t.fileName ?? null,
        })),
        parameters: r.inputParameters.length,
        lastRun: last.get(r.id) ?? null,
      })),
      groups: await loadGroups(client()),
    }
  }

  async show(ctx: HttpContext) {
    const report = await findReport(client(), id(ctx))
    if (!report) return notFound(ctx, key(id(ctx)))
    await sendVersion(ctx)
    return report
  }

  async store(ctx: HttpContext) {
    const body = bodyObject(ctx)
    if (!body) return
    body.id = String(body.id ?? randomUUID()).toLowerCase()
    if (await findReport(client(), body.id))
      return adminError(ctx, 409, 'Conflict', `${key(body.id)} already exists`)
    await this.#save(ctx, body, true)
  }

  async update(ctx: HttpContext) {
    if (!(await findReport(client(), id(ctx)))) return notFound(ctx, key(id(ctx)))
    const body = bodyObject(ctx)
    if (!body) return
    if (body.id !== undefined && String(body.id).toLowerCase() !== id(ctx))
      return adminError(ctx, 422, 'Invalid payload', 'the id cannot change', {
        problems: [{ path: '$.id', message: `must be '${id(ctx)}'` }],
      })
    await this.#save(ctx, { ...body, id: id(ctx) }, false)
  }

  /** PATCH: top-level keys of the body replace the stored report's (`{"restAccess": true}`). */
  async patch(ctx: HttpContext) {
    const stored = await findReport(client(), id(ctx))
    if (!stored) return notFound(ctx, key(id(ctx)))
    const body = bodyObject(ctx)
    if (!body) return
    await this.#save(ctx, { ...stored, ...body, id: id(ctx) }, false)
  }

  async destroy(ctx: HttpContext) {
    if (!(await findReport(client(), id(ctx)))) return notFound(ctx, key(id(ctx)))
    const result = await applyFromCurrent(
      ctx,
      (current) => ({
        formatVersion: 1,
        reports: (current.reports ?? []).filter((r: any) => r.id !== id(ctx)),
      }),
      { pruneSections: ['reports'] }
    )
    sendResult(ctx, result)
  }

  async downloadTemplate(ctx: HttpContext) {
    const code = decodeURIComponent(String(ctx.params.code))
    const template = (await templateFiles(client(), id(ctx))).get(code)
    if (!template?.fileKey) return notFound(ctx, `template '${code}' of ${key(id(ctx))}`)
    const bytes = await readTemplateFile(template.fileKey)
    if (!bytes) return notFound(ctx, `the file of template '${code}'`)
    ctx.response.header('Content-Type', 'application/octet-stream')
    ctx.response.header(
      'Content-Disposition',
      `attachment; filename*=UTF-8''${encodeURIComponent(template.fileName ?? code)}`
    )
    return ctx.response.send(bytes)
  }

  async uploadTemplate(ctx: HttpContext) {
    const stored = await findReport(client(), id(ctx))
    if (!stored) return notFound(ctx, key(id(ctx)))
    const code = decodeURIComponent(String(ctx.params.code))
    const template = stored.templates.find((t) => t.code === code)
    if (!template) return notFound(ctx, `template '${code}' of ${key(id(ctx))}`)
    const bytes = await rawBytes(ctx, MAX_TEMPLATE_BYTES)
    if (!bytes)
      return adminError(ctx, 413, 'Payload too large', 'a template file may have at most 20 MB')
    if (!bytes.length)
      return adminError(ctx, 400, 'Bad request', 'the body must be the template file')
    const fileName = String(ctx.request.qs().fileName ?? template.fileName ?? code)
    const templates = stored.templates.map((t) =>
      t.code === code ? { ...t, fileName, file: `base64:${bytes.toString('base64')}` } : t
    )
    await this.#save(ctx, { ...stored, templates }, false)
  }

  async preview(ctx: HttpContext) {
    const body = bodyObject(ctx, ['band', 'parameters', 'report'])
    if (!body) return
    const stored = await findReport(client(), id(ctx))
    if (!stored && !body.report) return notFound(ctx, key(id(ctx)))
    await withDataManager(ctx, async (data) => {
      try {
        const result = await previewBand(
          data,
          engine.db,
          body.report ?? stored,
          body.band,
          body.parameters
        )
        if ('problems' in result)
          return adminError(ctx, 422, 'Invalid payload', 'the report has problems', result)
        return ctx.response.status(200).json(result)
      } catch (error) {
        if (!(error instanceof ReportError)) throw error
        return ctx.response
          .status(error.status)
          .json({ error: error.error, details: error.message })
      }
    })
  }

  async run(ctx: HttpContext) {
    const report = await findReport(client(), id(ctx))
    if (!report) return notFound(ctx, key(id(ctx)))
    await withDataManager(ctx, (data) => sendRun(ctx, data, report, 'admin'))
  }

  async executions(ctx: HttpContext) {
    const { report, limit } = ctx.request.qs()
    const n = Number(limit)
    return {
      executions: await listExecutions(
        client(),
        typeof report === 'string' && report ? report.toLowerCase() : undefined,
        Number.isInteger(n) && n > 0 ? n : 200
      ),
    }
  }

  async #save(ctx: HttpContext, report: Record<string, any>, created: boolean) {
    const result = await definitions(engine).importDocument(
      { formatVersion: 1, reports: [report] },
      changeOptions(ctx)
    )
    const applied = result.status === 'applied' || result.status === 'unchanged'
    const saved = applied ? await findReport(client(), String(report.id)) : null
    if (saved && created && result.status === 'applied')
      ctx.response.header('Location', `/admin/api/reports/${saved.id}`)
    sendResult(ctx, result, { prefix: PREFIX, created, extra: saved ? { report: saved } : {} })
  }
}
