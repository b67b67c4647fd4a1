import type { HttpContext } from '@adonisjs/core/http'
import db from '@adonisjs/lucid/services/db'
import vine, { errors } from '@vinejs/vine'
import engine from '#engine/services/engine'
import { DataError } from '#engine/data/errors'
import { stringifyJson } from '#engine/data/read/json_text'
import { CONSOLE_CLIENT_ID } from '#oauth/config_clients'
import { resolveLocale } from '#settings/request_locale'
import { validateDocument } from '#definition/main'
import { isObject } from '#definition/shape'
import { normalizeRowLevelRole, planRoles } from '#security/roles_definition'
import {
  inspectPermissions,
  permissionsFor,
  permissionsWithDraft,
  previewRows,
  resolveSubject,
  type InspectedSubject,
  type InspectTarget,
} from '#security/main'
import { dataManagerFor } from '#controllers/rest/data_access'
import { adminError, notFound, type Problem } from './admin_http.js'

const name = () => vine.string().trim().minLength(1)
const SUBJECT = {
  user: name().optional(),
  client: name().optional(),
  tokenClient: name().optional(),
}
const permissionsInput = vine.compile(vine.object(SUBJECT))
const previewInput = vine.compile(
  vine.object({
    ...SUBJECT,
    entity: name(),
    limit: vine.number().withoutDecimals().min(1).optional(),
    filter: vine.any().optional(),
    rowLevelRole: vine.any().optional(),
  })
)
const DEFAULT_LIMIT = 20
/** The code an unsaved row-level role without one is previewed under. */
const DRAFT_CODE = 'unsaved-row-level-role'

/** Where a parameter is: `user` in a query string, `$.user` in a JSON body. */
type PathOf = (key: string) => string

const badRequest = (ctx: HttpContext, problems: Problem[]) =>
  adminError(ctx, 400, 'Bad request', `${problems.length} problem(s) in the request`, { problems })

/** The parameters (query string or JSON body), validated; undefined once 400 is answered. */
async function readInput<T>(
  ctx: HttpContext,
  validator: { validate(data: unknown): Promise<T> },
  keys: string[],
  fromBody: boolean
): Promise<T | undefined> {
  const raw = fromBody ? ctx.request.body() : ctx.request.qs()
  const path: PathOf = fromBody ? (k) => `$.${k}` : (k) => k
  if (!raw || typeof raw !== 'object' || Array.isArray(raw))
    return void badRequest(ctx, [{ path: '$', message: 'the body must be a JSON object' }])
  const problems: Problem[] = Object.keys(raw)
    .filter((k) => !keys.includes(k))
    .map((k) => ({ path: path(k), message: `unknown parameter '${k}'` }))
  let valid: any
  try {
    valid = await validator.validate(raw)
  } catch (error) {
    if (!(error instanceof errors.E_VALIDATION_ERROR)) throw error
    for (const m of error.messages as { field: string; message: string }[])
      problems.push({ path: path(m.field), message: m.message })
  }
  if (valid) problems.push(...targetProblems(valid, path))
  if (problems.length) return void badRequest(ctx, problems)
  return valid
}

/** Exactly one of `user` and `client`; `tokenClient` only for a user's token. */
function targetProblems(input: Record<string, unknown>, path: PathOf): Problem[] {
  const { user, client, tokenClient } = input
  if ((user === undefined) === (client === undefined))
    return [{ path: path('user'), message: 'name exactly one of user and client' }]
  if (tokenClient !== undefined && (user === undefined || user === 'anonymous'))
    return [{ path: path('tokenClient'), message: "only a user's token has a client" }]
  return []
}

const targetOf = (input: { user?: string; client?: string; tokenClient?: string }) =>
  (input.client !== undefined
    ? { client: input.client }
    : { user: input.user!, tokenClient: input.tokenClient }) as InspectTarget

/** The subject, or undefined once 404 is answered. */
async function subjectOf(ctx: HttpContext, target: InspectTarget) {
  const found = await resolveSubject(db.connection(), target, CONSOLE_CLIENT_ID)
  if ('missing' in found) return void notFound(ctx, found.missing)
  return found
}

/** Instance names of the preview in the locale the subject's own request would get. */
const localeOf = (ctx: HttpContext, inspected: InspectedSubject) => () =>
  resolveLocale(
    ctx.request.header('accept-language'),
    engine.properties.get<string[]>('svc.core.available-locales'),
    [inspected.subject.kind === 'user' ? inspected.subject.locale : null]
  )

/**
 * An unsaved row-level role (`rowLevelRole` of POST /row-preview), checked exactly as saving it
 * would check it; problems point into the request body (`$.rowLevelRole.policies[0].filter`).
 */
async function draftRole(raw: unknown) {
  const entry = isObject(raw) && raw.code === undefined ? { ...raw, code: DRAFT_CODE } : raw
  const checked = await validateDocument({ formatVersion: 1, rowLevelRoles: [entry] })
  let problems = checked.problems
  const entries = checked.document?.rowLevelRoles
  if (entries && !problems.length)
    problems = (await planRoles(db.connection(), engine.model, undefined, entries, false)).problems
  const at = (path: string) => path.replace(/^\$\.rowLevelRoles\[0\]/, '$.rowLevelRole')
  if (problems.length || !entries)
    return { problems: problems.map((p) => ({ ...p, path: at(p.path) })) }
  return { role: normalizeRowLevelRole(entries[0]) }
}

/**
 * Effective permissions and the row-level preview of any user or client (README "Admin API"):
 * read-only, computed as the subject's own requests would be (app/security/inspect.ts).
 */
export default class InspectController {
  /** GET /permissions?user=<username>|client=<clientId>[&tokenClient=<clientId>] */
  async permissions(ctx: HttpContext) {
    const input = await readInput(ctx, permissionsInput, Object.keys(SUBJECT), false)
    if (!input) return
    const inspected = await subjectOf(ctx, targetOf(input))
    if (!inspected) return
    const permissions = await permissionsFor(inspected.subject)
    return inspectPermissions(db.connection(), engine.model, inspected, permissions)
  }

  /** GET /row-preview?entity=&user=|client=[&limit=&filter=] */
  preview(ctx: HttpContext) {
    return this.#preview(ctx, false)
  }

  /** POST /row-preview {entity, user|client, tokenClient?, limit?, filter?, rowLevelRole?} */
  previewPosted(ctx: HttpContext) {
    return this.#preview(ctx, true)
  }

  async #preview(ctx: HttpContext, fromBody: boolean) {
    const keys = [...Object.keys(SUBJECT), 'entity', 'limit', 'filter']
    // An unsaved row-level role is a JSON object: only a JSON body can carry it.
    if (fromBody) keys.push('rowLevelRole')
    const input = await readInput(ctx, previewInput, keys, fromBody)
    if (!input) return
    const entity = engine.model.entity(input.entity)
    if (!entity) return notFound(ctx, `entity '${input.entity}'`)
    const inspected = await subjectOf(ctx, targetOf(input))
    if (!inspected) return
    let permissions = await permissionsFor(inspected.subject)
    if (input.rowLevelRole !== undefined) {
      const draft = await draftRole(input.rowLevelRole)
      if (!draft.role) return badRequest(ctx, draft.problems)
      const client = db.connection()
      const version = engine.rolesVersion
      permissions = await permissionsWithDraft(client, engine.model, version, inspected, draft.role)
    }
    const data = dataManagerFor(inspected.subject, permissions, localeOf(ctx, inspected))
    const limit = input.limit ?? DEFAULT_LIMIT
    const path = fromBody ? (k: string) => `$.${k}` : (k: string) => k
    if (limit > data.context.maxFetchSize)
      return badRequest(ctx, [
        { path: path('limit'), message: `at most ${data.context.maxFetchSize} rows` },
      ])
    try {
      const preview = await previewRows(data, entity.name, { limit, filter: input.filter })
      const body = { entity: entity.name, subject: inspected.info, ...preview }
      // Entity JSON keeps the scale of decimals as the entities API writes it (json_text.ts).
      ctx.response.header('Content-Type', 'application/json; charset=utf-8')
      return ctx.response.send(stringifyJson(body))
    } catch (error) {
      // The filter is the only part of the request the data layer can still refuse.
      if (!(error instanceof DataError)) throw error
      const problems = [{ path: path('filter'), message: `${error.error}: ${error.details}` }]
      return adminError(ctx, error.status, error.error, error.details, { problems })
    }
  }
}
