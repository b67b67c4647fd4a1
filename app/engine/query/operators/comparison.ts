/**
 * `=`, `<>`, `>`, `>=`, `<`, `<=`: one value of the property's datatype.
 */
import type { Comparator } from '../filter_ast.js'
import { convertValue } from '../values/registry.js'
import type { OperatorDefinition, TypeCategory } from './types.js'

const EQUALITY: TypeCategory[] = ['string', 'number', 'date', 'time', 'boolean', 'identity']
const ORDERING: TypeCategory[] = ['number', 'date', 'time']

function comparison(token: Comparator, categories: TypeCategory[]): OperatorDefinition {
  return {
    token,
    categories: new Set(categories),
    valueRequired: true,
    build: ({ raw, target }) => ({
      family: 'comparison',
      comparator: token,
      value: convertValue(target, raw),
    }),
  }
}

export const COMPARISON_OPERATORS: readonly OperatorDefinition[] = [
  comparison('=', EQUALITY),
  comparison('<>', EQUALITY),
  comparison('>', ORDERING),
  comparison('>=', ORDERING),
  comparison('<', ORDERING),
  comparison('<=', ORDERING),
]
