/**
 * Argument conversion by declared type (spec 4.3 rule 6, reference 6.3). GET arguments are
 * query texts; POST arguments are JSON values (primitives are taken in their text form, as
 * upstream). A value that does not convert is `null` from `convert`, which the caller turns into
 * 400 `Invalid parameter value for <param>`.
 */
import vine from '@vinejs/vine'
import engine from '#engine/services/engine'
import { parseFileRef } from '#files/file_ref'
import type { ParamType } from './types.js'

const INVALID = Symbol('invalid')
export type Converted = unknown | typeof INVALID
export const isInvalid = (value: unknown): value is typeof INVALID => value === INVALID

const INT = /^[+-]?\d+$/
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/
const DATE = /^\d{4}-\d{2}-\d{2}$/
const TIME = /^\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?$/
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})?$/
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** A primitive JSON value in its text form; objects and arrays as JSON text (upstream). */
function text(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value)
}

/** JSON values of entity / DTO parameters: GET passes them as JSON text. */
function json(value: unknown, fromQuery: boolean): unknown {
  if (!fromQuery || typeof value !== 'string') return value
  try {
    return JSON.parse(value)
  } catch {
    return INVALID
  }
}

function validDate(iso: string): boolean {
  const [y, m, d] = iso.slice(0, 10).split('-').map(Number)
  const date = new Date(Date.UTC(y, m - 1, d))
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d
}

function simple(type: string, raw: string): Converted {
  switch (type) {
    case 'string':
      return raw
    case 'int':
    case 'long': {
      if (!INT.test(raw)) return INVALID
      const n = Number(raw)
      if (type === 'long') return Number.isSafeInteger(n) ? n : INVALID
      return n >= -(2 ** 31) && n < 2 ** 31 ? n : INVALID
    }
    case 'double':
      return NUMBER.test(raw) && Number.isFinite(Number(raw)) ? Number(raw) : INVALID
    case 'decimal':
      // Kept as its exact text: no binary rounding.
      return NUMBER.test(raw) ? raw : INVALID
    case 'boolean':
      return raw === 'true' ? true : raw === 'false' ? false : INVALID
    case 'date':
      return DATE.test(raw) && validDate(raw) ? raw : INVALID
    case 'time':
      return TIME.test(raw) ? raw : INVALID
    case 'dateTime': {
      if (!DATE_TIME.test(raw) || !validDate(raw)) return INVALID
      const date = new Date(raw)
      return Number.isNaN(date.getTime()) ? INVALID : date
    }
    case 'uuid':
      return UUID.test(raw) ? raw.toLowerCase() : INVALID
    case 'fileRef':
      return parseFileRef(raw) ? raw : INVALID
  }
  return INVALID
}

function entityObject(value: unknown, entity: string): Converted {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return INVALID
  const declared = (value as Record<string, unknown>)._entityName
  if (declared !== undefined && declared !== entity) return INVALID
  return value
}

const compiled = new WeakMap<object, ReturnType<typeof vine.compile>>()

async function structured(schema: object, value: unknown): Promise<Converted> {
  let validator = compiled.get(schema)
  if (!validator) compiled.set(schema, (validator = vine.compile(schema as any)))
  try {
    return await validator.validate(value)
  } catch {
    return INVALID
  }
}

/** `value` converted to `type` (INVALID when it does not convert). */
export async function convert(
  type: ParamType | undefined,
  value: unknown,
  fromQuery: boolean
): Promise<Converted> {
  if (type === undefined) return value
  if (value === null) return null
  if (typeof type === 'string') return simple(type, text(value))
  if ('enum' in type) {
    const values = engine.model.enums.get(type.enum)?.values ?? []
    const name = text(value)
    return values.some((v) => v.name === name) ? name : INVALID
  }
  const parsed = json(value, fromQuery)
  if (isInvalid(parsed)) return INVALID
  if ('entity' in type) {
    return engine.model.entity(type.entity) ? entityObject(parsed, type.entity) : INVALID
  }
  if ('entities' in type) {
    if (!Array.isArray(parsed) || !engine.model.entity(type.entities)) return INVALID
    const items = parsed.map((item) => entityObject(item, type.entities))
    return items.some(isInvalid) ? INVALID : items
  }
  return structured(type.schema, parsed)
}
