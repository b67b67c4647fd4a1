import type { HttpContext } from '@adonisjs/core/http'
import hash from '@adonisjs/core/services/hash'
import engine from '#engine/services/engine'
import { definitions, type DefinitionResult } from '#definition/main'
import { ANONYMOUS_USERNAME, generatePassword, passwordProblem } from '#oauth/accounts'
import {
  adminError,
  changeOptions,
  invalidPayload,
  notFound,
  rebase,
  sendResult,
} from './admin_http.js'
import { bodyObject, findUserView, sameName, searchUsers, type UserView } from './people.js'

const PREFIX = '$.users[0]'
const MAX_PAGE = 500

/** A whole number from the query string within [min, max], its default when absent. */
function pageParam(ctx: HttpContext, name: string, fallback: number, min: number, max: number) {
  const raw = ctx.request.qs()[name]
  if (raw === undefined || raw === '') return fallback
  const value = Number(raw)
  return Number.isInteger(value) && value >= min && value <= max ? value : null
}

const builtInRefused = (ctx: HttpContext, what: string) =>
  adminError(
    ctx,
    403,
    'Forbidden',
    `'${ANONYMOUS_USERNAME}' is the built-in anonymous user: ${what}; only its roles can be changed`
  )

/**
 * Users one at a time (README "Admin API"): search, show, create (with a password generated and
 * shown once on request), change, deactivate and activate, set or generate a password (the
 * user's tokens stop), assign roles. Each change is a `users` entry of the definition imported
 * through the one door; users are never deleted here.
 */
export default class UsersController {
  async index(ctx: HttpContext) {
    const offset = pageParam(ctx, 'offset', 0, 0, Number.MAX_SAFE_INTEGER)
    const limit = pageParam(ctx, 'limit', 50, 1, MAX_PAGE)
    if (offset === null || limit === null)
      return adminError(
        ctx,
        400,
        'Bad request',
        `offset must be a whole number >= 0 and limit one from 1 to ${MAX_PAGE}`
      )
    const q = String(ctx.request.qs().q ?? '').trim()
    return searchUsers(q, offset, limit)
  }

  async show(ctx: HttpContext) {
    const user = await findUserView(ctx.params.username)
    return user ?? notFound(ctx, `user '${ctx.params.username}'`)
  }

  async store(ctx: HttpContext) {
    const body = bodyObject(ctx)
    if (!body) return
    const { generatePassword: generate, ...entry } = body
    if (generate !== undefined && typeof generate !== 'boolean')
      return invalidPayload(ctx, [{ path: '$.generatePassword', message: 'must be true or false' }])
    if (generate && (entry.password !== undefined || entry.passwordHash !== undefined))
      return invalidPayload(ctx, [
        { path: '$.generatePassword', message: 'give a password or generatePassword, not both' },
      ])
    const username = typeof entry.username === 'string' ? entry.username.trim() : undefined
    if (username && (await findUserView(username)))
      return adminError(ctx, 409, 'Conflict', `user '${username}' already exists`)
    const password = generate ? generatePassword() : undefined
    const result = await this.#apply(ctx, password ? { ...entry, password } : entry)
    await this.#answer(ctx, result, username, {
      created: true,
      // Shown once: only the hash is stored.
      extra: password ? { password } : {},
    })
  }

  async update(ctx: HttpContext) {
    const username = ctx.params.username
    if (!(await findUserView(username))) return notFound(ctx, `user '${username}'`)
    const body = bodyObject(ctx)
    if (!body || !sameName(ctx, body, 'username', username)) return
    // Fields left out stay as they are; role lists given replace the assigned ones.
    await this.#answer(ctx, await this.#apply(ctx, { ...body, username }), username)
  }

  deactivate(ctx: HttpContext) {
    return this.#setActive(ctx, false)
  }

  activate(ctx: HttpContext) {
    return this.#setActive(ctx, true)
  }

  async password(ctx: HttpContext) {
    const username = ctx.params.username
    if (!(await findUserView(username))) return notFound(ctx, `user '${username}'`)
    if (username === ANONYMOUS_USERNAME) return builtInRefused(ctx, 'it has no password')
    const body = bodyObject(ctx, ['password'])
    if (!body) return
    const generated = body.password === undefined ? generatePassword() : undefined
    const password = generated ?? body.password
    const problem = passwordProblem(password)
    if (problem) return invalidPayload(ctx, [{ path: '$.password', message: problem }])
    // Sent as a fresh hash (new salt): the change is planned even when the password is the same
    // one, so the user's existing tokens always stop.
    const passwordHash = await hash.use('scrypt').make(password)
    const result = await this.#apply(ctx, { username, passwordHash })
    await this.#answer(ctx, result, username, { extra: generated ? { password: generated } : {} })
  }

  async roles(ctx: HttpContext) {
    const username = ctx.params.username
    if (!(await findUserView(username))) return notFound(ctx, `user '${username}'`)
    const body = bodyObject(ctx, ['resourceRoles', 'rowLevelRoles'])
    if (!body) return
    await this.#answer(ctx, await this.#apply(ctx, { ...body, username }), username)
  }

  async #setActive(ctx: HttpContext, active: boolean) {
    const username = ctx.params.username
    if (!(await findUserView(username))) return notFound(ctx, `user '${username}'`)
    if (username === ANONYMOUS_USERNAME) return builtInRefused(ctx, 'it is always active')
    await this.#answer(ctx, await this.#apply(ctx, { username, active }), username)
  }

  #apply(ctx: HttpContext, entry: Record<string, unknown>) {
    return definitions(engine).importDocument(
      { formatVersion: 1, users: [entry] },
      changeOptions(ctx)
    )
  }

  /** The result with the user as it is now; `extra` (a generated password) only once applied. */
  async #answer(
    ctx: HttpContext,
    result: DefinitionResult,
    username: string | undefined,
    options: { created?: boolean; extra?: Record<string, unknown> } = {}
  ) {
    if (result.status === 'invalid' && result.problems.length === 1) {
      // One problem (the last administrator, an e-mail): said in `details` as well.
      const problems = rebase(result.problems, PREFIX)
      ctx.response.header('ETag', `"${result.definitionVersion}"`)
      return adminError(
        ctx,
        422,
        'Invalid definition',
        `${problems[0].message}; nothing was changed`,
        { problems }
      )
    }
    const done = result.status === 'applied' || result.status === 'unchanged'
    const user: UserView | null = done && username ? await findUserView(username) : null
    if (user && options.created && result.status === 'applied')
      ctx.response.header('Location', `/admin/api/users/${encodeURIComponent(user.username)}`)
    const extra = result.status === 'applied' ? (options.extra ?? {}) : {}
    sendResult(ctx, result, {
      prefix: PREFIX,
      created: options.created,
      extra: { ...(user ? { user } : {}), ...extra },
    })
  }
}
