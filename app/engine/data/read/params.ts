/**
 * Request parameters of the read endpoints -> ListOptions, for query strings (every value a
 * string, leniently parsed as Spring parses them) and POST search bodies (JSON values).
 * Malformed values are a 400 `{error, details}` (deliberate improvement: upstream answers 500).
 */
import type { ListOptions } from '../data_manager.js'
import { DataError } from '../errors.js'
import { isPlainObject, own } from '../../query/errors.js'
import { invalidFetchPlan } from './plan.js'

type Params = Record<string, unknown>

export const invalidParameter = (name: string, value: unknown) =>
  new DataError(400, 'Invalid parameter', `Invalid value of parameter ${name}: ${String(value)}`)

const TRUE = new Set(['true', 'on', 'yes', '1'])
const FALSE = new Set(['false', 'off', 'no', '0'])

/** First value of a query parameter (repeated parameters arrive as arrays). */
function first(params: Params, name: string): unknown {
  const value = own(params, name)
  return Array.isArray(value) ? value[0] : value
}

function bool(name: string, value: unknown): boolean | undefined {
  if (value === undefined || value === null) return undefined
  if (typeof value === 'boolean') return value
  const text = String(value).trim().toLowerCase()
  if (TRUE.has(text)) return true
  if (FALSE.has(text) || text === '') return false
  throw invalidParameter(name, value)
}

function int(name: string, value: unknown): number | undefined {
  if (value === undefined || value === null || value === '') return undefined
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return value
  if (typeof value === 'string' && /^\s*\+?\d{1,15}\s*$/.test(value)) return Number(value)
  throw invalidParameter(name, value)
}

function string(name: string, value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined
  if (typeof value !== 'string') throw invalidParameter(name, value)
  return value
}

/**
 * `fetchPlan`, or the legacy alias `view` the old npm client sends (reference 14.3). An empty
 * `fetchPlan` is looked up (400 `Fetch plan  for entity X not found`, as 2.8); an empty `view` is
 * no plan, as in the releases that read `view` (2.0: `isNullOrEmpty` -> `_base`; 2.8 ignores
 * `view`): the old client writes an unset option as `view=`.
 */
function planOf(pick: (n: string) => unknown): unknown {
  const view = pick('view')
  const plan = pick('fetchPlan') ?? (view === '' ? undefined : view)
  if (plan === undefined || plan === null) return undefined
  if (typeof plan === 'string' || isPlainObject(plan)) return plan
  throw invalidFetchPlan(JSON.stringify(plan))
}

/** Read options from a query string (load, list, GET search). */
export function optionsFromQuery(query: Params): ListOptions {
  const pick = (n: string) => first(query, n)
  return {
    fetchPlan: planOf(pick) as string | undefined,
    returnNulls: bool('returnNulls', pick('returnNulls')),
    limit: int('limit', pick('limit')),
    offset: int('offset', pick('offset')),
    sort: string('sort', pick('sort')),
    returnCount: bool('returnCount', pick('returnCount')),
  }
}

/** The filter of GET search / count: required (upstream: missing parameter). */
export function filterFromQuery(query: Params): unknown {
  return first(query, 'filter') ?? null
}

/** Options of a POST search body: everything is in the body, nothing in the query string. */
export function optionsFromBody(body: unknown): ListOptions & { filter: unknown } {
  if (!isPlainObject(body)) {
    throw new DataError(400, 'Malformed request JSON data structure', 'A JSON object was expected')
  }
  const pick = (n: string) => own(body, n)
  return {
    filter: pick('filter') ?? null,
    fetchPlan: planOf(pick) as string | undefined,
    returnNulls: bool('returnNulls', pick('returnNulls')),
    limit: int('limit', pick('limit')),
    offset: int('offset', pick('offset')),
    sort: string('sort', pick('sort')),
    returnCount: bool('returnCount', pick('returnCount')),
  }
}
