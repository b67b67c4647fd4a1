import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'

/**
 * The routes that produce JSON only (upstream: controllers declaring `produces=application/json`,
 * reference 1). Not: /rest/files (downloads), /rest/version (text), /rest/user-session, OAuth.
 */
const JSON_ONLY = [
  '/rest/entities/',
  '/rest/metadata/',
  '/rest/messages/',
  '/rest/permissions',
  '/rest/userInfo',
  '/rest/capabilities',
]

/** One media range of an Accept header that application/json satisfies (Spring's isCompatibleWith). */
function compatible(range: string): boolean {
  const semicolon = range.indexOf(';')
  const type = (semicolon === -1 ? range : range.slice(0, semicolon)).trim().toLowerCase()
  return (
    type === '*/*' ||
    type === '*' ||
    type === 'application/json' ||
    type === 'application/*' ||
    type === 'application/*+json'
  )
}

/** Whether an Accept header lets a JSON answer through (absent or empty: yes). */
export function acceptsJson(accept: string | undefined): boolean {
  if (accept === undefined || accept === 'application/json' || accept === '*/*') return true
  if (accept.trim() === '') return true
  return accept.split(',').some(compatible)
}

/**
 * Content negotiation of the JSON endpoints (reference 1): an `Accept` that application/json
 * does not satisfy is a 406, after routing (unknown paths stay 404, wrong methods 405) and
 * before the body is read. OPTIONS answers whatever the Accept (Spring's automatic answer).
 * The body is ours, as for the other errors before a controller (404, 405): `{error, details}`.
 */
export default class AcceptJsonMiddleware {
  handle(ctx: HttpContext, next: NextFn) {
    const accept = ctx.request.request.headers.accept
    if (acceptsJson(accept)) return next()
    const pattern = ctx.route?.pattern ?? ''
    if (ctx.request.method() === 'OPTIONS' || !JSON_ONLY.some((p) => pattern.startsWith(p))) {
      return next()
    }
    return ctx.response.status(406).send({
      error: 'Not acceptable',
      details: 'This resource produces application/json, which the Accept header does not allow',
    })
  }
}
