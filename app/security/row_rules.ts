/**
 * A stored row-level filter -> a RowRule for one caller. The filter is written in the search
 * filter language (query/filter_parser.ts); string values equal to a placeholder are replaced
 * by the caller's value before parsing:
 *
 *   :current_user_id        the user's id        (null for client-credentials tokens)
 *   :current_user_username  the user's username  (`anonymous` on anonymous URLs; null for clients)
 *   :current_client_id      the token's client   (null on anonymous URLs)
 *
 * A condition whose placeholder has no value for the caller matches nothing (it becomes
 * `id isNull`), as SQL would treat a comparison with NULL, so a missing value never widens
 * what a rule lets through (catalogue AZ20). A filter that no longer parses against the model
 * (an attribute was removed) fails closed: the rule matches nothing.
 */
import type { Model } from '#engine/metadata/model'
import { parseFilter } from '#engine/query/filter_parser'
import { NOTHING, type RowRule } from './policy_index.js'

export interface CallerValues {
  userId: string | null
  username: string | null
  clientId: string | null
}

const MISSING = Symbol('missing')
const FALSE_CONDITION = { property: 'id', operator: 'isNull' }

function valueOf(caller: CallerValues, text: string): string | null | typeof MISSING {
  if (text === ':current_user_id') return caller.userId
  if (text === ':current_user_username') return caller.username
  if (text === ':current_client_id') return caller.clientId
  return MISSING
}

function substitute(node: unknown, caller: CallerValues): unknown {
  if (Array.isArray(node)) return node.map((n) => substitute(n, caller))
  if (!node || typeof node !== 'object') return node
  const object = node as Record<string, unknown>
  if (Array.isArray(object.conditions)) {
    return { ...object, conditions: object.conditions.map((c) => substitute(c, caller)) }
  }
  if (!('value' in object)) return object
  let unknownValue = false
  const replace = (v: unknown) => {
    if (typeof v !== 'string') return v
    const value = valueOf(caller, v)
    if (value === MISSING) return v
    if (value === null) unknownValue = true
    return value
  }
  const value = Array.isArray(object.value) ? object.value.map(replace) : replace(object.value)
  return unknownValue ? FALSE_CONDITION : { ...object, value }
}

/** One stored filter compiled for one caller (an empty filter restricts nothing). */
export function compileRowRule(
  model: Model,
  entity: string,
  filter: unknown,
  caller: CallerValues
): RowRule {
  const parsed = parseFilter(model, entity, substitute(filter, caller))
  if (!parsed.ok) return NOTHING
  return { kind: 'filter', root: parsed.value.root }
}
