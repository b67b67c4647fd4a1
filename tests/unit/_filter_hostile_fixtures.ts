/**
 * Shared helpers for the hostile-input filter unit tests (not a spec file).
 */
import { parseFilter } from '#engine/query/filter_parser'
import { demoModel, errorOf } from '#tests/unit/_query_fixtures'

export const ORDER = 'bookstore_Order'
export const c = (property: string, operator: string, value?: unknown) => ({
  property,
  operator,
  value,
})

export async function parse(filter: unknown, options = {}) {
  return parseFilter(await demoModel(), ORDER, filter, options)
}

export async function details(filter: unknown, options = {}) {
  return errorOf(await parse(filter, options)).details
}

export function nested(depth: number): Record<string, unknown> {
  let node: Record<string, unknown> = c('number', '=', 'x')
  for (let k = 0; k < depth; k++) node = { group: 'OR', conditions: [node] }
  return { conditions: [node] }
}
