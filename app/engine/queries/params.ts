/**
 * Parameters of named queries: conversion of request values by declared type (reference 2.8)
 * and their substitution into the query's filter, where a string value `:name` (alone, or as an
 * element of an `in` list) stands for parameter `name`. Converted values are filter values
 * (JSON), so the filter parser converts them again to the attribute's datatype and they only
 * ever become bindings. An array parameter (`X[]`) stands for a list of values (`in`/`notIn`).
 *
 * Caller parameters (reference 2.8): `:session$userId` (the user's id), `:session$username`
 * and `:session$userLogin` (its username) are filled from the subject, never declared nor
 * read from the request. A caller without the value (a client-credentials token, or the
 * anonymous user's id) makes the condition match nothing, as row-level filters do.
 */
import type { Subject } from '#security/subject'
import type { Model } from '../metadata/model.js'
import { DataError } from '../data/errors.js'
import { baseType, type BaseParamType, type QueryParam } from './store.js'

export const SESSION_PARAMS = ['session$userId', 'session$username', 'session$userLogin'] as const

export const isSessionParam = (name: string) => (SESSION_PARAMS as readonly string[]).includes(name)

/** The caller parameters' values for `subject` (null: the caller has none). */
export function sessionValues(subject: Subject): Map<string, string | null> {
  const userId = subject.kind === 'user' ? subject.userId : null
  const username = subject.kind === 'client' ? null : subject.username
  return new Map<string, string | null>([
    ['session$userId', userId],
    ['session$username', username],
    ['session$userLogin', username],
  ])
}

/** Sample caller values, to check a query's filter without a request. */
export const SAMPLE_SESSION = new Map<string, unknown>([
  ['session$userId', '00000000-0000-4000-8000-000000000000'],
  ['session$username', 'sample'],
  ['session$userLogin', 'sample'],
])

export const parameterNotFound = (name: string) =>
  new DataError(400, 'Query parameter not found', `Query parameter ${name} not found`)
export const invalidParameterValue = (name: string) =>
  new DataError(400, 'Invalid query parameter', `Cannot parse query parameter ${name}`)

const SAMPLE_UUID = '00000000-0000-4000-8000-000000000000'
const INT = /^[+-]?\d{1,19}$/
const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/
const DATE = /^\d{4}-\d{2}-\d{2}$/
const TIME = /^\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?$/
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?$/
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

function validDate(text: string): boolean {
  const d = new Date(`${text.slice(0, 10)}T00:00:00Z`)
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === text.slice(0, 10)
}

function validTime(text: string): boolean {
  const [h, m, s] = text.split(':').map((p) => Number.parseFloat(p))
  return h < 24 && m < 60 && (s === undefined || s < 60)
}

/** The id datatype of `entity` ('uuid' | 'long' | 'string'). */
function idTypeOf(model: Model, entity: string | undefined) {
  return (entity && model.entity(entity)?.idType) || 'uuid'
}

/**
 * One request value -> the filter value of parameter `param`, or undefined when it cannot be
 * read as its type. `raw` is a query-string value or a JSON body value (primitives are read as
 * their text, as upstream does).
 */
export function convertValue(model: Model, param: QueryParam, raw: unknown): unknown {
  const { base, array } = baseType(param.type)
  if (array) return convertArray(model, { ...param, type: base as BaseParamType }, raw)
  const text = typeof raw === 'string' ? raw : JSON.stringify(raw)
  switch (param.type) {
    case 'string':
      return text
    case 'int': {
      const n = INT.test(text) ? Number(text) : Number.NaN
      return Number.isInteger(n) && n >= -2147483648 && n <= 2147483647 ? n : undefined
    }
    case 'long': {
      if (!INT.test(text)) return undefined
      const n = BigInt(text)
      if (n < -(2n ** 63n) || n >= 2n ** 63n) return undefined
      return Number.isSafeInteger(Number(n)) ? Number(n) : n.toString()
    }
    case 'double':
      return DECIMAL.test(text) && Number.isFinite(Number(text)) ? Number(text) : undefined
    case 'decimal':
      return DECIMAL.test(text) ? text : undefined
    case 'boolean': {
      const lower = text.toLowerCase()
      return lower === 'true' ? true : lower === 'false' ? false : undefined
    }
    case 'date':
      return DATE.test(text) && validDate(text) ? text : undefined
    case 'time':
      return TIME.test(text) && validTime(text) ? text : undefined
    case 'dateTime':
      return DATE_TIME.test(text) && validDate(text) && validTime(text.slice(11)) ? text : undefined
    case 'uuid':
      return UUID.test(text) ? text.toLowerCase() : undefined
    case 'enum': {
      const values = model.enums.get(param.enum ?? '')?.values ?? []
      return values.some((v) => v.name === text) ? text : undefined
    }
    case 'entity': {
      const idType = idTypeOf(model, param.entity)
      if (idType === 'uuid') return UUID.test(text) ? text.toLowerCase() : undefined
      if (idType === 'long') return convertValue(model, { name: param.name, type: 'long' }, text)
      return text
    }
  }
}

/**
 * An array parameter's values: a JSON array (POST, or a query-string value `["a","b"]`),
 * repeated query-string values (`?names=a&names=b`), or one value (a list of one).
 */
function convertArray(model: Model, param: QueryParam, raw: unknown): unknown[] | undefined {
  let items: unknown[]
  if (Array.isArray(raw)) {
    items = raw.length === 1 && typeof raw[0] === 'string' ? (jsonArray(raw[0]) ?? raw) : raw
  } else if (typeof raw === 'string') items = jsonArray(raw) ?? [raw]
  else if (raw !== null && typeof raw === 'object') return undefined
  else items = [raw]
  const out: unknown[] = []
  for (const item of items) {
    if (item === null || typeof item === 'object') return undefined
    const value = convertValue(model, param, item)
    if (value === undefined) return undefined
    out.push(value)
  }
  return out
}

function jsonArray(text: string): unknown[] | undefined {
  if (!text.trimStart().startsWith('[')) return undefined
  try {
    const parsed = JSON.parse(text)
    return Array.isArray(parsed) ? parsed : undefined
  } catch {
    return undefined
  }
}

/** A value of the parameter's type, to check a query's filter without a request. */
export function sampleValue(model: Model, param: QueryParam): unknown {
  const { base, array } = baseType(param.type)
  if (array) return [sampleValue(model, { ...param, type: base as BaseParamType })]
  switch (param.type) {
    case 'string':
      return 'sample'
    case 'int':
    case 'long':
      return 1
    case 'double':
      return 1.5
    case 'decimal':
      return '1.5'
    case 'boolean':
      return true
    case 'date':
      return '2024-01-31'
    case 'time':
      return '12:30:00'
    case 'dateTime':
      return '2024-01-31T12:30:00'
    case 'uuid':
      return SAMPLE_UUID
    case 'enum':
      return model.enums.get(param.enum ?? '')?.values[0]?.name ?? 'sample'
    case 'entity': {
      const idType = idTypeOf(model, param.entity)
      return idType === 'uuid' ? SAMPLE_UUID : idType === 'long' ? 1 : 'sample'
    }
  }
}

/** `:name` (or `:session$name`) when `value` is a parameter placeholder, else undefined. */
export function placeholderName(value: unknown): string | undefined {
  return typeof value === 'string' &&
    /^:[A-Za-z_][A-Za-z0-9_]*(?:\$[A-Za-z_][A-Za-z0-9_]*)?$/.test(value)
    ? value.slice(1)
    : undefined
}

/** Every placeholder the filter uses. */
export function placeholdersOf(filter: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(filter)) filter.forEach((f) => placeholdersOf(f, out))
  else if (filter && typeof filter === 'object') {
    const node = filter as Record<string, unknown>
    if (Array.isArray(node.conditions)) placeholdersOf(node.conditions, out)
    if ('value' in node) {
      const values = Array.isArray(node.value) ? node.value : [node.value]
      for (const v of values) {
        const name = placeholderName(v)
        if (name) out.add(name)
      }
    }
  }
  return out
}

/** A condition that matches nothing (a caller value the caller does not have). */
const NOTHING = { property: 'id', operator: 'isNull' }

/**
 * The filter with every placeholder replaced by its value from `values`: an array value is
 * spliced into an `in` list (or becomes the list); a null value (a caller parameter the caller
 * lacks) turns its condition into one that matches nothing.
 */
export function substitute(filter: unknown, values: ReadonlyMap<string, unknown>): unknown {
  if (Array.isArray(filter)) return filter.map((f) => substitute(f, values))
  if (!filter || typeof filter !== 'object') return filter
  const node = { ...(filter as Record<string, unknown>) }
  if (Array.isArray(node.conditions)) node.conditions = substitute(node.conditions, values)
  if ('value' in node) {
    let missing = false
    const valueOf = (v: unknown) => {
      const name = placeholderName(v)
      if (name === undefined || !values.has(name)) return v
      const value = values.get(name)
      if (value === null) missing = true
      return value
    }
    if (Array.isArray(node.value)) {
      node.value = node.value.flatMap((v) => {
        const value = valueOf(v)
        return Array.isArray(value) ? value : [value]
      })
    } else node.value = valueOf(node.value)
    if (missing) return { ...NOTHING }
  }
  return node
}
