import type { HttpContext } from '@adonisjs/core/http'
import router from '@adonisjs/core/services/router'
import db from '@adonisjs/lucid/services/db'
import { CONSOLE_CLIENT_ID } from '#oauth/config_clients'
import {
  URL_PATTERN_PROPERTIES,
  currentUrlPatterns,
  explainTarget,
  type UrlPatternLists,
  type UrlPatternProperty,
} from '#oauth/resource_server'
import { coerce, findProperty } from '#settings/properties'
import { resolveSubject } from '#security/main'
import { adminError, type Problem } from './admin_http.js'

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']

const badRequest = (ctx: HttpContext, problems: Problem[]) =>
  adminError(ctx, 400, 'Bad request', `${problems.length} problem(s) in the request`, { problems })

const isPatternProperty = (name: string): name is UrlPatternProperty =>
  (URL_PATTERN_PROPERTIES as readonly string[]).includes(name)

/**
 * Candidate pattern lists (`{"<property>": ["/a/**", ...] | "a,b"}`), each entry checked by the
 * property's own rules (the ones a PUT /settings would apply), with a path per entry.
 */
function candidateLists(raw: unknown, problems: Problem[]): UrlPatternLists {
  const lists = { ...currentUrlPatterns() }
  if (raw === undefined) return lists
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    problems.push({ path: '$.patterns', message: 'must be an object {"<property>": [patterns]}' })
    return lists
  }
  for (const [name, value] of Object.entries(raw)) {
    const path = `$.patterns['${name}']`
    if (!isPatternProperty(name)) {
      problems.push({
        path,
        message: `not a URL pattern property (${URL_PATTERN_PROPERTIES.join(', ')})`,
      })
      continue
    }
    const definition = findProperty(name)!
    if (Array.isArray(value)) {
      value.forEach((entry, i) => {
        try {
          coerce(definition, [entry])
        } catch (error) {
          const message = (error as Error).message.replace(`${name}: `, '')
          problems.push({ path: `${path}[${i}]`, message })
        }
      })
    }
    try {
      lists[name] = coerce(definition, value) as string[]
    } catch (error) {
      if (!Array.isArray(value))
        problems.push({ path, message: (error as Error).message.replace(`${name}: `, '') })
    }
  }
  return lists
}

/**
 * The URL tester (README "Admin API"): how the resource server would treat a request, computed
 * by its own code (app/oauth/resource_server.ts `explainTarget`, the firewall and classifyPath
 * the middleware runs), with the lists in force or with candidate lists; read-only.
 */
export default class UrlTestController {
  /** GET /url-test?method=&path= */
  show(ctx: HttpContext) {
    const { method, path, ...rest } = ctx.request.qs()
    const problems: Problem[] = Object.keys(rest).map((k) => ({
      path: k,
      message: `unknown parameter '${k}'`,
    }))
    return this.#answer(ctx, method, path, undefined, problems, (k) => k)
  }

  /** POST /url-test {method?, path, patterns?} */
  test(ctx: HttpContext) {
    const body = ctx.request.body()
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      return badRequest(ctx, [{ path: '$', message: 'the body must be a JSON object' }])
    const { method, path, patterns, ...rest } = body
    const problems: Problem[] = Object.keys(rest).map((k) => ({
      path: `$.${k}`,
      message: `unknown property '${k}'`,
    }))
    return this.#answer(ctx, method, path, patterns, problems, (k) => `$.${k}`)
  }

  async #answer(
    ctx: HttpContext,
    rawMethod: unknown,
    target: unknown,
    patterns: unknown,
    problems: Problem[],
    at: (key: string) => string
  ) {
    const method = rawMethod === undefined || rawMethod === '' ? 'GET' : rawMethod
    if (typeof method !== 'string' || !METHODS.includes(method.toUpperCase()))
      problems.push({ path: at('method'), message: `must be one of ${METHODS.join(', ')}` })
    if (typeof target !== 'string' || target === '')
      problems.push({
        path: at('path'),
        message: 'a request path such as /rest/entities/x is required',
      })
    const lists = candidateLists(patterns, problems)
    if (problems.length) return badRequest(ctx, problems)

    const verb = (method as string).toUpperCase()
    const path = target as string
    const decision = explainTarget(path, lists)
    const base = { method: verb, path, candidate: patterns !== undefined, patterns: lists }
    if ('rejected' in decision)
      return {
        ...base,
        normalizedPath: null,
        canonical: false,
        kind: 'rejected',
        rejected: decision.rejected,
        anonymous: null,
        authenticated: null,
        tokenRequired: false,
        runsAs: null,
        route: null,
      }
    let runsAs = null
    if (decision.kind === 'anonymous') {
      const found = await resolveSubject(db.connection(), { user: 'anonymous' }, CONSOLE_CLIENT_ID)
      if (!('missing' in found))
        runsAs = {
          user: 'anonymous',
          resourceRoles: found.info.resourceRoles,
          rowLevelRoles: found.info.rowLevelRoles,
        }
    }
    const q = path.indexOf('?')
    const matched = router.match(q === -1 ? path : path.slice(0, q), verb)
    return {
      ...base,
      ...decision,
      rejected: null,
      runsAs,
      route: matched ? matched.route.pattern : null,
    }
  }
}
