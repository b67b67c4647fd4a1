/**
 * Shared helpers for the filter operator unit tests (not a spec file).
 */
import { parseFilter } from '#engine/query/filter_parser'
import type { FilterCondition } from '#engine/query/filter_ast'
import { demoModel, errorOf, valueOf } from '#tests/unit/_query_fixtures'

export const UUID = '5b9f3c1e-8d2a-4b7e-9c1f-0a2b3c4d5e6f'
export const UUID2 = '77aa3c1e-8d2a-4b7e-9c1f-0a2b3c4d5e6f'
export const B = 'bookstore_Book'

export async function run(entity: string, property: string, operator: string, value?: unknown) {
  const condition = value === undefined ? { property, operator } : { property, operator, value }
  return parseFilter(await demoModel(), entity, { conditions: [condition] })
}

export async function cond(entity: string, property: string, operator: string, value?: unknown) {
  return valueOf(await run(entity, property, operator, value)).root.conditions[0] as FilterCondition
}

export async function fails(entity: string, property: string, operator: string, value?: unknown) {
  return errorOf(await run(entity, property, operator, value)).details
}
