/**
 * `in` / `notIn`: a JSON array of values of the property's datatype, at most
 * `maxInListSize` of them (checked before any is converted); duplicates are dropped.
 */
import { filterFailure } from '../errors.js'
import type { FilterScalar } from '../filter_ast.js'
import { convertValue } from '../values/registry.js'
import type { OperatorDefinition } from './types.js'

function list(token: 'in' | 'notIn'): OperatorDefinition {
  return {
    token,
    categories: new Set(['string', 'number', 'date', 'identity']),
    valueRequired: true,
    build: ({ raw, target, maxInListSize }) => {
      if (!Array.isArray(raw))
        throw filterFailure(
          `JSON array was expected as a value for condition with operator ${token}`
        )
      if (raw.length > maxInListSize)
        throw filterFailure(
          `Too many values for condition with operator ${token}: at most ${maxInListSize} are allowed`
        )
      const values = new Set<FilterScalar>()
      for (const item of raw) values.add(convertValue(target, item))
      return { family: 'list', negated: token === 'notIn', values: [...values] }
    },
  }
}

export const LIST_OPERATORS: readonly OperatorDefinition[] = [list('in'), list('notIn')]
