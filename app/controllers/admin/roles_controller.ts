import type { HttpContext } from '@adonisjs/core/http'
import engine from '#engine/services/engine'
import { definitions } from '#definition/main'
import { adminError, changeOptions, invalidPayload, notFound, sendResult } from './admin_http.js'
import {
  applyFromCurrent,
  assignedUsers,
  bodyObject,
  findRole,
  listRoles,
  listRolesWithCounts,
  roleKindOf,
  sameName,
  type RoleKind,
} from './people.js'

const doc = (kind: RoleKind, roles: unknown[]) => ({ formatVersion: 1, [kind.key]: roles })
/** Problems of the one role a request sends are reported at paths into its body. */
const prefix = (kind: RoleKind) => `$.${kind.key}[0]`
/** Fields of a shown role that are not part of its definition: a shown role may be sent back. */
const withoutView = ({ builtIn: _b, users: _u, userCount: _c, ...role }: Record<string, any>) =>
  role
const readOnly = (ctx: HttpContext, kind: RoleKind, code: string) =>
  adminError(ctx, 403, 'Forbidden', `'${code}' is a built-in ${kind.label}: it cannot be changed`)

/**
 * Resource roles and row-level roles one at a time (README "Admin API"): list, show, create,
 * replace, delete (with prune; the role's assignments go with it) and copy under a new code.
 * Built-in resource roles are listed and shown, flagged `builtIn`, and never written.
 */
export default class RolesController {
  async index(ctx: HttpContext) {
    return { roles: await listRolesWithCounts(roleKindOf(ctx)) }
  }

  async show(ctx: HttpContext) {
    const kind = roleKindOf(ctx)
    const code = ctx.params.code
    const role = await findRole(kind, code)
    if (!role) return notFound(ctx, `${kind.label} '${code}'`)
    return { ...role, users: await assignedUsers(kind, code) }
  }

  async store(ctx: HttpContext) {
    const kind = roleKindOf(ctx)
    const posted = bodyObject(ctx)
    if (!posted) return
    const body = withoutView(posted)
    if (typeof body.code === 'string' && (await findRole(kind, body.code.trim())))
      return this.#exists(ctx, kind, body.code.trim())
    await this.#save(ctx, kind, body, true)
  }

  async update(ctx: HttpContext) {
    const kind = roleKindOf(ctx)
    const code = ctx.params.code
    const role = await findRole(kind, code)
    if (!role) return notFound(ctx, `${kind.label} '${code}'`)
    if (role.builtIn) return readOnly(ctx, kind, code)
    const body = bodyObject(ctx)
    if (!body || !sameName(ctx, body, 'code', code)) return
    // The body replaces the role: what it leaves out takes its default.
    await this.#save(ctx, kind, { ...withoutView(body), code }, false)
  }

  async copy(ctx: HttpContext) {
    const kind = roleKindOf(ctx)
    const source = await findRole(kind, ctx.params.code)
    if (!source) return notFound(ctx, `${kind.label} '${ctx.params.code}'`)
    const body = bodyObject(ctx, ['code', 'name'])
    if (!body) return
    if (typeof body.code !== 'string' || !body.code.trim())
      return invalidPayload(ctx, [{ path: '$.code', message: 'the code of the copy is required' }])
    if (body.name !== undefined && typeof body.name !== 'string')
      return invalidPayload(ctx, [{ path: '$.name', message: 'must be a string' }])
    if (await findRole(kind, body.code.trim())) return this.#exists(ctx, kind, body.code.trim())
    const { builtIn, ...role } = source
    const name = body.name ?? `${source.name} (copy)`
    await this.#save(ctx, kind, { ...role, code: body.code.trim(), name }, true)
  }

  async destroy(ctx: HttpContext) {
    const kind = roleKindOf(ctx)
    const code = ctx.params.code
    const role = await findRole(kind, code)
    if (!role) return notFound(ctx, `${kind.label} '${code}'`)
    if (role.builtIn) return readOnly(ctx, kind, code)
    const parents = await this.#parents(kind, code)
    if (parents.length)
      return adminError(
        ctx,
        409,
        'Conflict',
        `'${code}' is a child role of ${parents.join(', ')}: remove it there first`
      )
    const users = await assignedUsers(kind, code)
    // The stored section minus this role, pruned: the roles section also drops its assignments.
    const result = await applyFromCurrent(
      ctx,
      (current) =>
        doc(
          kind,
          (current[kind.key] ?? []).filter((r: any) => r.code !== code)
        ),
      { pruneSections: ['roles'] }
    )
    sendResult(ctx, result, { extra: { unassignedFrom: users } })
  }

  async #save(ctx: HttpContext, kind: RoleKind, role: Record<string, any>, created: boolean) {
    const result = await definitions(engine).importDocument(doc(kind, [role]), changeOptions(ctx))
    const applied = result.status === 'applied' || result.status === 'unchanged'
    const saved = applied ? await findRole(kind, String(role.code).trim()) : null
    if (saved && created && result.status === 'applied')
      ctx.response.header('Location', `/admin/api/${kind.path}/${encodeURIComponent(saved.code)}`)
    sendResult(ctx, result, { prefix: prefix(kind), created, extra: saved ? { role: saved } : {} })
  }

  #exists(ctx: HttpContext, kind: RoleKind, code: string) {
    return adminError(ctx, 409, 'Conflict', `${kind.label} '${code}' already exists`)
  }

  /** Stored resource roles that name `code` among their child roles. */
  async #parents(kind: RoleKind, code: string) {
    const roles = (await listRoles(kind)) as { code: string; childRoles?: string[] }[]
    return roles.filter((r) => r.childRoles?.includes(code)).map((r) => r.code)
  }
}
