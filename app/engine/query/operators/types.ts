/**
 * The contract of a filter operator. Each family (comparison, list, like, null test) lives in
 * its own file and registers its tokens in registry.ts.
 */
import type { ConditionOperands, OperatorToken } from '../filter_ast.js'
import type { ValueTarget } from '../values/registry.js'

/**
 * Upstream groups Java types into these when it decides which operators apply
 * (`RestFilterOpManagerImpl.availableOps`); `opaque` (json) is ours.
 */
export type TypeCategory = 'string' | 'number' | 'date' | 'time' | 'boolean' | 'identity' | 'opaque'

export interface OperatorInput {
  /** False when the condition has no `value` key (or `"value": null`). */
  hasValue: boolean
  raw: unknown
  target: ValueTarget
  maxInListSize: number
}

export interface OperatorDefinition {
  token: OperatorToken
  /** Type categories of the (last) property the operator may be used with. */
  categories: ReadonlySet<TypeCategory>
  /** Upstream: `Field 'value' is not defined for filter condition` when missing. */
  valueRequired: boolean
  /** Converts the raw value into the condition's operands; throws a `QueryFailure`. */
  build(input: OperatorInput): ConditionOperands
}

export const ALL_CATEGORIES: readonly TypeCategory[] = [
  'string',
  'number',
  'date',
  'time',
  'boolean',
  'identity',
  'opaque',
]
