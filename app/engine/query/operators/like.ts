/**
 * `contains`, `doesNotContain`, `startsWith`, `endsWith`: case-insensitive LIKE on strings.
 * The condition keeps the raw text; the SQL builder turns it into a pattern with `likePattern`,
 * so `%`, `_` and the escape character in a value always match literally (catalogue FQ5).
 */
import type { LikeCondition } from '../filter_ast.js'
import { convertValue } from '../values/registry.js'
import type { OperatorDefinition } from './types.js'

/** The escape character the SQL builder declares with `ESCAPE '\'`. */
export const LIKE_ESCAPE = '\\'

/** Escapes the LIKE wildcards `%` and `_` and the escape character itself. */
export function escapeLike(value: string, escape: string = LIKE_ESCAPE): string {
  if (escape.length !== 1 || escape === '%' || escape === '_')
    throw new Error(`invalid LIKE escape character: ${escape}`)
  let out = ''
  for (const ch of value) out += ch === '%' || ch === '_' || ch === escape ? escape + ch : ch
  return out
}

/** The complete LIKE pattern of a condition (wildcards added around the escaped value). */
export function likePattern(
  condition: Pick<LikeCondition, 'match' | 'value'>,
  escape: string = LIKE_ESCAPE
): string {
  const body = escapeLike(condition.value, escape)
  if (condition.match === 'startsWith') return `${body}%`
  if (condition.match === 'endsWith') return `%${body}`
  return `%${body}%`
}

function like(
  token: 'contains' | 'doesNotContain' | 'startsWith' | 'endsWith',
  match: LikeCondition['match'],
  negated: boolean
): OperatorDefinition {
  return {
    token,
    categories: new Set(['string']),
    valueRequired: true,
    build: ({ raw, target }) => ({
      family: 'like',
      match,
      negated,
      value: String(convertValue(target, raw)),
      caseInsensitive: true,
      escape: true,
    }),
  }
}

export const LIKE_OPERATORS: readonly OperatorDefinition[] = [
  like('contains', 'contains', false),
  like('doesNotContain', 'contains', true),
  like('startsWith', 'startsWith', false),
  like('endsWith', 'endsWith', false),
]
