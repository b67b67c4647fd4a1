/**
 * Classifies a column type change: `widen` never loses data, `truncate` loses only values that
 * are too long, `convert` may lose any value. Pure; used by the planner to attach risks.
 */
import type { ColumnType } from './physical.js'

export type TypeChange = 'same' | 'widen' | 'truncate' | 'convert'

const WIDENINGS: Record<string, string[]> = {
  int: ['long', 'double', 'decimal', 'string', 'text'],
  long: ['decimal', 'string', 'text'],
  double: ['string', 'text'],
  decimal: ['string', 'text'],
  uuid: ['string', 'text'],
  enum: ['string', 'text'],
  file: ['string', 'text'],
  boolean: ['string', 'text'],
  date: ['string', 'text', 'dateTime', 'offsetDateTime'],
  time: ['string', 'text'],
  dateTime: ['string', 'text', 'offsetDateTime'],
  offsetDateTime: ['string', 'text'],
  string: ['text', 'enum', 'file'],
  json: ['text'],
}

/**
 * The length limit of a column stored as varchar: `enum` and `file` columns are varchar too
 * (see the dialects), so converting into them can cut values just like a short string.
 */
export function textLimit(type: ColumnType): number | undefined {
  switch (type.kind) {
    case 'string':
      return type.length ?? 255
    case 'enum':
      return 255
    case 'file':
      return 1024
    default:
      return undefined
  }
}

/** Characters a value of this type needs at most when rendered as text (undefined: unbounded). */
function textWidth(type: ColumnType): number | undefined {
  switch (type.kind) {
    case 'enum':
    case 'file':
      return textLimit(type)
    case 'int':
      return 11
    case 'long':
      return 20
    case 'uuid':
      return 36
    case 'boolean':
      return 5
    case 'date':
      return 10
    case 'time':
      return 18
    case 'dateTime':
    case 'offsetDateTime':
      return 35
    case 'decimal':
      return (type.precision ?? 19) + 2
    case 'string':
      return type.length
    default:
      return undefined
  }
}

export function classifyTypeChange(from: ColumnType, to: ColumnType): TypeChange {
  if (from.kind === to.kind) {
    if (from.kind === 'string') {
      return (to.length ?? 255) >= (from.length ?? 255)
        ? to.length === from.length
          ? 'same'
          : 'widen'
        : 'truncate'
    }
    if (from.kind === 'decimal') {
      if (from.precision === to.precision && from.scale === to.scale) return 'same'
      const intFrom = (from.precision ?? 19) - (from.scale ?? 2)
      const intTo = (to.precision ?? 19) - (to.scale ?? 2)
      return intTo >= intFrom && (to.scale ?? 2) >= (from.scale ?? 2) ? 'widen' : 'convert'
    }
    return 'same'
  }
  if (!(WIDENINGS[from.kind] ?? []).includes(to.kind)) return 'convert'
  const limit = textLimit(to)
  if (limit !== undefined) {
    const width = textWidth(from)
    if (width === undefined) return 'truncate'
    return width <= limit ? 'widen' : 'truncate'
  }
  if (to.kind === 'decimal' && from.kind === 'long' && (to.precision ?? 19) - (to.scale ?? 2) < 19)
    return 'convert'
  if (to.kind === 'decimal' && from.kind === 'int' && (to.precision ?? 19) - (to.scale ?? 2) < 10)
    return 'convert'
  return 'widen'
}
