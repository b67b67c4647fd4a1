/**
 * Stage 1 of filter parsing, independent of the model: JSON text (lenient, as upstream's Gson)
 * -> a checked tree of groups and raw conditions. Enforces the size limits before doing the
 * work they bound, reads only own keys (a `__proto__` or `constructor` key is just an unknown
 * key, ignored like every other), and resolves operator tokens through the registry.
 */
import { holdsNul } from '#changes/db_values'
import { parseLenientJson } from './lenient_json.js'
import type { GroupType } from './filter_ast.js'
import type { FilterLimits } from './limits.js'
import type { OperatorDefinition } from './operators/types.js'
import { findOperator } from './operators/registry.js'
import {
  MALFORMED_JSON_ERROR,
  QueryFailure,
  echo,
  filterFailure,
  isPlainObject,
  own,
} from './errors.js'

export interface RawCondition {
  kind: 'condition'
  property: string
  operator: OperatorDefinition
  /** False when the `value` key is missing or null. */
  hasValue: boolean
  value: unknown
}

export interface RawGroup {
  kind: 'group'
  type: GroupType
  conditions: RawNode[]
}

export type RawNode = RawCondition | RawGroup

/** A filter given as text is parsed leniently (unquoted keys, single quotes, comments). */
export function readFilterJson(input: unknown, limits: FilterLimits): unknown {
  if (input === undefined || input === null) throw filterFailure('Entities filter cannot be null')
  let json: unknown = input
  if (typeof input === 'string') {
    if (input.length > limits.maxTextLength)
      throw filterFailure(`Entities filter is longer than ${limits.maxTextLength} characters`)
    try {
      json = parseLenientJson(input)
    } catch (error) {
      throw filterFailure(`Entities filter is not valid JSON: ${echo((error as Error).message)}`)
    }
  }
  // `\u0000` escapes in the JSON text become NUL characters, which no stored value can hold.
  if (holdsNul(json)) throw filterFailure('Filter values must not contain NUL characters (\\u0000)')
  return json
}

const ROOT_KEYS = ['conditions']
const GROUP_KEYS = ['group', 'conditions']
const CONDITION_KEYS = ['property', 'operator', 'value']

/**
 * Stricter than upstream (catalogue TY7): a key the filter language does not have is a 400
 * naming it. Upstream ignores it, so `{"condition": [...]}` or a condition at the top level
 * matched every row, one typo away from a bulk action on everything.
 */
function onlyKeys(element: Record<string, unknown>, allowed: string[], what: string) {
  for (const key of Object.keys(element))
    if (!allowed.includes(key))
      throw filterFailure(
        `Unknown key '${echo(key)}' in ${what} (allowed: ${allowed.map((k) => `'${k}'`).join(', ')})`
      )
}

class ShapeReader {
  #nodes = 0

  constructor(private limits: FilterLimits) {}

  root(json: unknown): RawGroup {
    if (!isPlainObject(json)) throw filterFailure('Entities filter must be a JSON object')
    onlyKeys(json, ROOT_KEYS, 'the filter')
    return { kind: 'group', type: 'AND', conditions: this.list(own(json, 'conditions'), 0) }
  }

  /** The `conditions` of the root (depth 0) or of a group at `depth`; empty groups dropped. */
  private list(value: unknown, depth: number): RawNode[] {
    if (value === undefined || value === null) return []
    if (!Array.isArray(value)) throw filterFailure("Field 'conditions' must be a JSON array")
    this.count(value.length)
    const out: RawNode[] = []
    for (const element of value) {
      const node = this.node(element, depth)
      if (node) out.push(node)
    }
    return out
  }

  private count(more: number) {
    this.#nodes += more
    if (this.#nodes > this.limits.maxConditions)
      throw filterFailure(
        `Entities filter has more than ${this.limits.maxConditions} conditions and groups`
      )
  }

  private node(element: unknown, depth: number): RawNode | null {
    if (!isPlainObject(element))
      throw new QueryFailure({
        status: 400,
        error: MALFORMED_JSON_ERROR,
        details: `JSON array element ${echo(element === undefined ? null : element)} is not a valid JSON object literal`,
      })
    return own(element, 'group') === undefined
      ? this.condition(element)
      : this.group(element, depth + 1)
  }

  private group(element: Record<string, unknown>, depth: number): RawGroup | null {
    onlyKeys(element, GROUP_KEYS, 'a conditions group')
    const type = own(element, 'group')
    const upper = typeof type === 'string' ? type.toUpperCase() : undefined
    if (upper !== 'AND' && upper !== 'OR')
      throw filterFailure(`Invalid conditions group type: ${echo(type)}`)
    if (depth > this.limits.maxDepth)
      throw filterFailure(`Conditions groups are nested deeper than ${this.limits.maxDepth} levels`)
    const conditions = this.list(own(element, 'conditions'), depth)
    return conditions.length ? { kind: 'group', type: upper, conditions } : null
  }

  private condition(element: Record<string, unknown>): RawCondition {
    onlyKeys(element, CONDITION_KEYS, 'a condition')
    const property = scalarString(own(element, 'property'))
    if (property === undefined)
      throw filterFailure("Field 'property' is not defined for filter condition")
    const token = own(element, 'operator')
    if (token === undefined || token === null)
      throw filterFailure("Field 'operator' is not defined for filter condition")
    const operator = typeof token === 'string' ? findOperator(token) : undefined
    if (!operator) throw filterFailure(`Operator is not supported: ${echo(token)}`)
    const value = own(element, 'value')
    const hasValue = value !== undefined && value !== null
    if (!hasValue && operator.valueRequired)
      throw filterFailure("Field 'value' is not defined for filter condition")
    return { kind: 'condition', property, operator, hasValue, value }
  }
}

/** Upstream reads `property` with `getAsString`: numbers and booleans become their text. */
function scalarString(value: unknown): string | undefined {
  if (typeof value === 'string') return value
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  return undefined
}

/** The checked tree of a filter JSON value (see `readFilterJson` for text). */
export function readFilterShape(json: unknown, limits: FilterLimits): RawGroup {
  return new ShapeReader(limits).root(json)
}
