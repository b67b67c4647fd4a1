/**
 * Converters of the textual datatypes: string, text, file, uuid, enum, and boolean.
 */
import { echo, filterFailure } from '../errors.js'
import type { Converter } from './convert.js'
import { boundedText, cannotParse } from './convert.js'

/** string, text and file (a fileRef string): any scalar in its string form, as upstream. */
export const text: Converter = (raw, ctx) => boundedText(raw, ctx)

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** Canonical 8-4-4-4-12 form only; stored lower case. */
export const uuid: Converter = (raw, ctx) => {
  const value = boundedText(raw, ctx)
  if (!UUID.test(value)) cannotParse(raw)
  return value.toLowerCase()
}

/** By constant name (upstream `Enum.valueOf`), converted to the stored id. */
export const enumeration: Converter = (raw, ctx) => {
  const name = typeof raw === 'string' ? raw : undefined
  const value = name === undefined ? undefined : ctx.enumDef?.values.find((v) => v.name === name)
  if (!value) throw filterFailure(`Cannot parse enum value: ${echo(raw)}`)
  return value.id
}

/** `true`/`false` as JSON booleans or strings (any case). */
export const boolean: Converter = (raw) => {
  if (typeof raw === 'boolean') return raw
  if (typeof raw === 'string') {
    const lower = raw.toLowerCase()
    if (lower === 'true') return true
    if (lower === 'false') return false
  }
  return cannotParse(raw)
}
