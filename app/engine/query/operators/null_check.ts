/**
 * `isNull` / `notEmpty` (upstream IS_SET false / true). The value is optional; when given
 * [2.8.2+] it is a boolean and `false` inverts the test. Upstream reads any other value as
 * `false`; here it is an error, so a typo cannot silently invert a filter.
 */
import { boolean } from '../values/text.js'
import { ALL_CATEGORIES } from './types.js'
import type { OperatorDefinition } from './types.js'

function nullCheck(token: 'isNull' | 'notEmpty'): OperatorDefinition {
  const setWhenTrue = token === 'notEmpty'
  return {
    token,
    categories: new Set(ALL_CATEGORIES),
    valueRequired: false,
    build: ({ hasValue, raw, target }) => {
      const asGiven = hasValue ? (boolean(raw, target.ctx) as boolean) : true
      return { family: 'null', isSet: asGiven === setWhenTrue }
    },
  }
}

export const NULL_OPERATORS: readonly OperatorDefinition[] = [
  nullCheck('isNull'),
  nullCheck('notEmpty'),
]
