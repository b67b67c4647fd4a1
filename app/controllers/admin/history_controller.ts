import type { HttpContext } from '@adonisjs/core/http'
import engine from '#engine/services/engine'
import { readAudit } from '#definition/main'
import { adminError, notFound, sendVersion } from './admin_http.js'

const DEFAULT_LIMIT = 50
const MAX_LIMIT = 500

/** `offset` and `limit` from the query string: whole numbers, limit 1..500; null when invalid. */
function paging(ctx: HttpContext): { offset: number; limit: number } | null {
  const qs = ctx.request.qs()
  const number = (raw: unknown, fallback: number) =>
    raw === undefined
      ? fallback
      : typeof raw === 'string' && /^\d{1,9}$/.test(raw)
        ? Number(raw)
        : -1
  const offset = number(qs.offset, 0)
  const limit = number(qs.limit, DEFAULT_LIMIT)
  if (offset < 0 || limit < 1 || limit > MAX_LIMIT) {
    adminError(
      ctx,
      400,
      'Bad request',
      `offset must be a whole number ≥ 0 and limit one from 1 to ${MAX_LIMIT}`
    )
    return null
  }
  return { offset, limit }
}

/** A filter value: one string (a repeated parameter is not a filter of ours). */
const text = (raw: unknown) => (typeof raw === 'string' && raw !== '' ? raw : undefined)

/**
 * What happened to the application: the schema changelog (every applied DDL statement, newest
 * first) and the admin audit trail (who changed which elements when; the list names the
 * elements, one entry shows their before/after).
 */
export default class HistoryController {
  async changelog(ctx: HttpContext) {
    const page = paging(ctx)
    if (!page) return
    const client = engine.db.connection()
    const [{ total }] = await client.from('mg_schema_changelog').count('* as total')
    const rows = await client
      .from('mg_schema_changelog')
      .select('*')
      .orderBy('id', 'desc')
      .offset(page.offset)
      .limit(page.limit)
    await sendVersion(ctx)
    return {
      total: Number(total),
      entries: rows.map((r) => ({
        id: Number(r.id),
        modelVersion: Number(r.model_version),
        operation: r.operation,
        target: r.target,
        sql: r.sql,
        source: r.source,
        appliedAt: new Date(r.applied_at).toISOString(),
      })),
    }
  }

  async index(ctx: HttpContext) {
    const page = paging(ctx)
    if (!page) return
    const qs = ctx.request.qs()
    const { total, entries } = await readAudit(engine.db.connection(), {
      section: text(qs.section),
      element: text(qs.element),
      author: text(qs.author),
      ...page,
    })
    await sendVersion(ctx)
    return {
      total,
      entries: entries.map(({ elements, ...entry }) => ({
        ...entry,
        elements: elements.map((e: any) => ({
          section: e.section,
          element: e.element,
          change: e.change,
        })),
      })),
    }
  }

  async show(ctx: HttpContext) {
    const raw: string = ctx.params.id
    const id = /^\d{1,9}$/.test(raw) ? Number(raw) : Number.NaN
    if (Number.isNaN(id)) return notFound(ctx, `Audit entry ${raw}`)
    const { entries } = await readAudit(engine.db.connection(), { id, offset: 0, limit: 1 })
    if (entries.length === 0) return notFound(ctx, `Audit entry ${raw}`)
    await sendVersion(ctx)
    return entries[0]
  }
}
