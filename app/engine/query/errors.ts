/**
 * Errors of the query stages (filter, sort). They carry the upstream `{error, details}` body and
 * a status, so the HTTP layer only copies them; the parsers never throw them at their callers
 * (they return a result), the stages inside throw `QueryFailure` and the entry points catch it.
 */

import type { EntityMeta, Model } from '../metadata/model.js'

/** `error` strings, exactly as the upstream server writes them where it has one. */
export const FILTER_ERROR = 'Cannot parse entities filter'
export const MALFORMED_JSON_ERROR = 'Malformed request JSON data structure'
export const ENTITY_NOT_FOUND_ERROR = 'Entity not found'
/** Ours: upstream silently ignores a sort it cannot read (see README). */
export const SORT_ERROR = 'Invalid sort parameter'

export interface QueryError {
  status: 400 | 404
  error: string
  details: string
}

export type QueryResult<T> = { ok: true; value: T } | { ok: false; error: QueryError }

export class QueryFailure extends Error {
  constructor(readonly queryError: QueryError) {
    super(`${queryError.error}: ${queryError.details}`)
  }
}

export function filterFailure(details: string): QueryFailure {
  return new QueryFailure({ status: 400, error: FILTER_ERROR, details })
}

/** Runs a stage and turns its `QueryFailure` into an error result; anything else is a bug. */
export function capture<T>(stage: () => T): QueryResult<T> {
  try {
    return { ok: true, value: stage() }
  } catch (error) {
    if (error instanceof QueryFailure) return { ok: false, error: error.queryError }
    throw error
  }
}

const MAX_ECHO = 200

/**
 * A client value as upstream echoes it in `details` (Gson's string form: strings raw, anything
 * else as JSON), cut short so a hostile megabyte never comes back in an error body.
 */
export function echo(value: unknown): string {
  let text: string
  if (typeof value === 'string') text = value
  else if (typeof value === 'number' || value === undefined) text = String(value)
  else {
    try {
      text = JSON.stringify(value) ?? String(value)
    } catch {
      text = String(value)
    }
  }
  return text.length > MAX_ECHO ? `${text.slice(0, MAX_ECHO)}…` : text
}

/** Own enumerable data only: inherited (possibly polluted) prototype keys are never read. */
export function own(object: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(object, key) ? object[key] : undefined
}

/** A JSON object (not an array, Date, Buffer, Map or class instance). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false
  const proto = Object.getPrototypeOf(value)
  return proto === Object.prototype || proto === null
}

/** The entity a query names, or the upstream 404 `Entity not found` (thrown inside `capture`). */
export function entityOrFail(model: Model, entityName: string): EntityMeta {
  const entity = model.entity(entityName)
  if (!entity) {
    throw new QueryFailure({
      status: 404,
      error: ENTITY_NOT_FOUND_ERROR,
      details: `Entity ${entityName} not found`,
    })
  }
  return entity
}
