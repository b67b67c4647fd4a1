import type { HttpContext } from '@adonisjs/core/http'
import db from '@adonisjs/lucid/services/db'
import { MISSING_TOKEN, unauthorized } from '#oauth/resource_server'
import { permissionsFor, type Permissions } from '#security/main'
import { findReport, loadGroups, loadReports } from '#reports/store'
import { visibleOverRest } from '#reports/run'
import { describeReport, summarizeReport } from '#reports/describe'
import { reportsOpenApi } from '#reports/openapi'
import type { ReportDefinition } from '#reports/types'
import { issuerOf } from '#oauth/server'
import { sendRun } from '#controllers/reports/report_http'
import { withDataManager } from './data_access.js'
import { routeParam } from './route_params.js'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

const notFound = (ctx: HttpContext, entity: string, id: string) =>
  ctx.response
    .status(404)
    .json({ error: 'Entity not found', details: `Entity ${entity} with id ${id} not found` })

/**
 * The Reports REST API (reference 11, README "Reports API"): thin adapter over app/reports.
 * Every request needs a token and the specific policy `reports.rest.enabled`; a report the
 * caller may not see (REST flag off, or restricted to roles the caller lacks) is 404 as if it
 * did not exist. Runs go through the caller's DataManager.
 */
export default class ReportsController {
  /** The caller's permissions, or null after answering 401/403. */
  async #allowed(ctx: HttpContext): Promise<Permissions | null> {
    if (!ctx.subject) {
      unauthorized(ctx, MISSING_TOKEN)
      return null
    }
    const permissions = ctx.permissions ?? (await permissionsFor(ctx.subject))
    if (permissions.specific('reports.rest.enabled')) return permissions
    ctx.response.status(403).json({
      error: 'Forbidden',
      details: 'Access to the reports REST API is not allowed (reports.rest.enabled)',
    })
    return null
  }

  /** The visible report `id`, or null after answering 400/404. */
  async #report(ctx: HttpContext, permissions: Permissions): Promise<ReportDefinition | null> {
    const id = routeParam(ctx, 'id')
    if (!UUID.test(id)) {
      ctx.response
        .status(400)
        .json({ error: 'Invalid entity ID', details: `Cannot convert ${id} into valid entity ID` })
      return null
    }
    const report = await findReport(db.connection(), id)
    if (report && visibleOverRest(report, permissions)) return report
    notFound(ctx, 'report_Report', id)
    return null
  }

  /** GET /rest/reports/report */
  async index(ctx: HttpContext) {
    const permissions = await this.#allowed(ctx)
    if (!permissions) return
    const reports = (await loadReports(db.connection())).filter((r) =>
      visibleOverRest(r, permissions)
    )
    return ctx.response.status(200).json(reports.map(summarizeReport))
  }

  /** GET /rest/reports/report/:id */
  async show(ctx: HttpContext) {
    const permissions = await this.#allowed(ctx)
    if (!permissions) return
    const report = await this.#report(ctx, permissions)
    if (report) return ctx.response.status(200).json(describeReport(report))
  }

  /** POST /rest/reports/run/:id */
  async run(ctx: HttpContext) {
    const permissions = await this.#allowed(ctx)
    if (!permissions) return
    const report = await this.#report(ctx, permissions)
    if (report) await withDataManager(ctx, (data) => sendRun(ctx, data, report, 'rest'))
  }

  /** POST /rest/reports/run/code/:code (upstream 3.x): the first visible report with that code. */
  async runByCode(ctx: HttpContext) {
    const permissions = await this.#allowed(ctx)
    if (!permissions) return
    const code = routeParam(ctx, 'code')
    const report = (await loadReports(db.connection())).find(
      (r) => r.code === code && visibleOverRest(r, permissions)
    )
    if (!report)
      return ctx.response.status(404).json({
        error: 'Entity not found',
        details: `Entity report_Report with code ${code} not found`,
      })
    await withDataManager(ctx, (data) => sendRun(ctx, data, report, 'rest'))
  }

  /** GET /rest/reports/group/:id */
  async group(ctx: HttpContext) {
    const permissions = await this.#allowed(ctx)
    if (!permissions) return
    const id = routeParam(ctx, 'id')
    const group = (await loadGroups(db.connection())).find((g) => g.id === id.toLowerCase())
    if (!group) return notFound(ctx, 'report_ReportGroup', id)
    return ctx.response
      .status(200)
      .json({ id: group.id, title: group.title, ...(group.code ? { code: group.code } : {}) })
  }

  /** GET /rest/reports/docs/openapi.(json|yaml) */
  async docs(ctx: HttpContext) {
    const permissions = await this.#allowed(ctx)
    if (!permissions) return
    const yaml = ctx.request.url().endsWith('.yaml')
    ctx.response.header('Content-Type', yaml ? 'application/yaml' : 'application/json')
    ctx.response.header('Cache-Control', 'no-cache')
    return ctx.response.send(reportsOpenApi(issuerOf(ctx), yaml ? 'yaml' : 'json'))
  }
}
