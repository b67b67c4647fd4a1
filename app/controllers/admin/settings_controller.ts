import type { HttpContext } from '@adonisjs/core/http'
import engine from '#engine/services/engine'
import { definitions } from '#definition/main'
import { CLIENT_SECRET_PROPERTY, PROPERTIES, findProperty } from '#settings/properties'
import {
  changeOptions,
  invalidPayload,
  notFound,
  sendResult,
  sendVersion,
  type Problem,
} from './admin_http.js'

/** Client secrets (even `{sha256}` digests) never leave the server. */
const MASK = '********'

const hide = (name: string, value: unknown) =>
  CLIENT_SECRET_PROPERTY.test(name) && value !== null && value !== '' ? MASK : value

/**
 * One property as the admin API shows it: registry facts, effective value and its origin, and
 * the value (and origin) that applies once a stored value is removed.
 */
function describe(name: string) {
  const definition = findProperty(name)!
  const properties = engine.properties
  const stored = properties.storedSettings()[name]
  const fallback = properties.fallback(name)
  return {
    name,
    type: definition.type,
    ...(definition.description ? { description: definition.description } : {}),
    default: definition.default,
    value: hide(name, properties.get(name)),
    source: properties.source(name),
    stored: stored === undefined ? null : hide(name, stored),
    fallback: { value: hide(name, fallback.value), source: fallback.source },
  }
}

/** The known names: every exact registry name, and per-client properties set somewhere. */
function knownNames(): string[] {
  const exact = PROPERTIES.filter((p) => !p.name.includes('<')).map((p) => p.name)
  const perClient = engine.properties
    .names('svc.')
    .filter((n) => findProperty(n) && !exact.includes(n))
  return [...exact.sort(), ...perClient]
}

/** A problem of `$.settings['<name>']` is one of the body's `value` (the name is in the URL). */
function bodyPaths(problems: Problem[], name: string): Problem[] {
  const prefix = `$.settings['${name}']`
  return problems.map((p) =>
    p.path === prefix ? { ...p, path: findProperty(name) ? '$.value' : '$' } : p
  )
}

/** The body is `{"value": ...}`: nothing else, and not null (DELETE removes a value). */
function bodyProblems(body: unknown): Problem[] {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return [{ path: '$', message: 'the body must be an object {"value": ...}' }]
  const problems: Problem[] = Object.keys(body)
    .filter((key) => key !== 'value')
    .map((key) => ({ path: `$.${key}`, message: 'unknown property' }))
  const value = (body as Record<string, unknown>).value
  if (value === undefined) problems.push({ path: '$.value', message: 'the new value is required' })
  else if (value === null)
    problems.push({ path: '$.value', message: 'must not be null (DELETE removes a stored value)' })
  return problems
}

/**
 * `svc.*` properties (README "Properties"): each with its type, default, effective value and
 * where that value comes from; PUT stores a value in the database (the `settings` section of
 * the definition), DELETE removes the stored one. Stored values win over file and environment
 * and apply at once.
 */
export default class SettingsController {
  async index(ctx: HttpContext) {
    await sendVersion(ctx)
    return { settings: knownNames().map(describe) }
  }

  async show(ctx: HttpContext) {
    const name = ctx.params.name
    if (!findProperty(name)) return notFound(ctx, `Property ${name}`)
    await sendVersion(ctx)
    return describe(name)
  }

  async update(ctx: HttpContext) {
    const name: string = ctx.params.name
    const body = ctx.request.body()
    const problems = bodyProblems(body)
    if (problems.length) return invalidPayload(ctx, problems)
    return this.#store(ctx, name, body.value)
  }

  async destroy(ctx: HttpContext) {
    const name: string = ctx.params.name
    if (!findProperty(name)) return notFound(ctx, `Property ${name}`)
    return this.#store(ctx, name, null)
  }

  async #store(ctx: HttpContext, name: string, value: unknown) {
    const result = await definitions(engine).importDocument(
      { formatVersion: 1, settings: { [name]: value } },
      changeOptions(ctx)
    )
    result.problems = bodyPaths(result.problems, name)
    const known = findProperty(name) !== undefined
    sendResult(ctx, result, known ? { extra: { setting: describe(name) } } : {})
  }
}
