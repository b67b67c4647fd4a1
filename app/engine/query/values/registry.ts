/**
 * Registry of value converters: one entry per datatype. A new datatype adds its converter here
 * (and its operator category in operators/registry.ts). References convert to the target's id.
 */
import type { Datatype } from '../../metadata/types.js'
import type { EntityMeta } from '../../metadata/model.js'
import { isPlainObject, own } from '../errors.js'
import type { FilterScalar, ValueType } from '../filter_ast.js'
import type { ConvertContext, Converter } from './convert.js'
import { cannotParse } from './convert.js'
import { boolean, enumeration, text, uuid } from './text.js'
import { decimal, double, int, long } from './numbers.js'
import { date, dateTime, offsetDateTime, time } from './temporal.js'

/** json attributes take no values (only the null tests apply to them). */
const none: Converter = (raw) => cannotParse(raw)

export const CONVERTERS: Readonly<Record<Datatype, Converter>> = Object.freeze({
  string: text,
  text,
  file: text,
  uuid,
  enum: enumeration,
  boolean,
  int,
  long,
  double,
  decimal,
  date,
  time,
  dateTime,
  offsetDateTime,
  json: none,
})

export interface ValueTarget {
  type: ValueType
  ctx: ConvertContext
  /** The referenced entity when the values are ids. */
  reference: EntityMeta | null
}

/**
 * One raw JSON value to the target's datatype. A reference takes the id itself or an entity
 * object `{"id": ..., "_entityName"?: ...}` (upstream accepts both); other keys of that object
 * are ignored, an `_entityName` of another entity is refused.
 */
export function convertValue(target: ValueTarget, raw: unknown): FilterScalar {
  const convert = CONVERTERS[target.type.datatype]
  if (target.reference && isPlainObject(raw)) {
    const entityName = own(raw, '_entityName')
    const id = own(raw, 'id')
    if (entityName !== undefined && entityName !== target.reference.name) cannotParse(raw)
    if (id === undefined || typeof id === 'object') cannotParse(raw)
    return convert(id, target.ctx)
  }
  return convert(raw, target.ctx)
}
