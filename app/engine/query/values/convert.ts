/**
 * Shared pieces of the value converters: the context they run in and their two failures.
 */
import type { EnumDefinition } from '../../metadata/types.js'
import { echo, filterFailure } from '../errors.js'
import type { FilterScalar } from '../filter_ast.js'

export interface ConvertContext {
  maxValueLength: number
  /** The enum of an enum attribute. */
  enumDef: EnumDefinition | null
}

/** Converts one raw JSON value; throws a `QueryFailure` when it does not fit the datatype. */
export type Converter = (raw: unknown, ctx: ConvertContext) => FilterScalar

export function cannotParse(raw: unknown): never {
  throw filterFailure(`Cannot parse property value: ${echo(raw)}`)
}

/**
 * The value's string form as upstream reads it (Gson `getAsString`): strings as they are,
 * finite numbers and booleans as text; objects, arrays and null have none.
 */
export function scalarText(raw: unknown): string | undefined {
  if (typeof raw === 'string') return raw
  if (typeof raw === 'number') return Number.isFinite(raw) ? String(raw) : undefined
  if (typeof raw === 'boolean') return String(raw)
  return undefined
}

/** A string value within the length limit (checked before any parsing). */
export function boundedText(raw: unknown, ctx: ConvertContext): string {
  const text = scalarText(raw)
  if (text === undefined) cannotParse(raw)
  if (text.length > ctx.maxValueLength)
    throw filterFailure(`Value is longer than ${ctx.maxValueLength} characters`)
  return text
}
