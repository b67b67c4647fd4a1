/**
 * OpenAPI test helpers: documents fetched through the real server, validated with a maintained
 * validator (@readme/openapi-parser), and the routes the router really has.
 */
import { readFile } from 'node:fs/promises'
import app from '@adonisjs/core/services/app'
import router from '@adonisjs/core/services/router'
import { validate, compileErrors } from '@readme/openapi-parser'
import { admin, type AdminActor } from '#tests/helpers/admin'

export async function demoDocument(): Promise<Record<string, unknown>> {
  return JSON.parse(await readFile(app.makePath('database/demo/bookstore.json'), 'utf8'))
}

/** Throws with the validator's readable errors when `doc` is not a valid OpenAPI document. */
export async function assertValidOpenApi(doc: unknown) {
  const result = await validate(structuredClone(doc) as any)
  if (!result.valid) throw new Error(compileErrors(result))
  return result
}

/** A document as `actor` (undefined: no token). */
export function getDoc(actor: AdminActor, path: string, headers: Record<string, string> = {}) {
  return admin(actor, 'GET', path, undefined, headers)
}

/** `METHOD /path/{}` for every routed path under `prefix` (HEAD and OPTIONS left out). */
export function routedOperations(prefix: string): Set<string> {
  const out = new Set<string>()
  for (const routes of Object.values(router.toJSON())) {
    for (const route of routes) {
      if (!route.pattern.startsWith(`${prefix}/`)) continue
      const path = route.pattern.slice(prefix.length).replace(/:[^/]+/g, '{}')
      for (const method of route.methods) {
        if (method === 'HEAD' || method === 'OPTIONS') continue
        out.add(`${method} ${path}`)
      }
    }
  }
  return out
}

/** `METHOD /path/{}` for every operation of a document (parameter names erased). */
export function documentedOperations(doc: any): Set<string> {
  const out = new Set<string>()
  for (const [path, item] of Object.entries<any>(doc.paths)) {
    for (const method of Object.keys(item)) {
      out.add(`${method.toUpperCase()} ${path.replace(/\{[^}]+\}/g, '{}')}`)
    }
  }
  return out
}

/** Whether a documented operation is one of the routed ones (a literal may fill a `{}`). */
export function matchesRoute(operation: string, routed: Set<string>): boolean {
  if (routed.has(operation)) return true
  const [method, path] = operation.split(' ')
  const segments = path.split('/')
  return [...routed].some((r) => {
    const [m, p] = r.split(' ')
    const rs = p.split('/')
    return (
      m === method &&
      rs.length === segments.length &&
      rs.every((s, i) => s === '{}' || s === segments[i])
    )
  })
}
