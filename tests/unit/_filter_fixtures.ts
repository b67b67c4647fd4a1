/**
 * Shared helpers for the filter parser unit tests (not a spec file).
 */
import { parseFilter } from '#engine/query/filter_parser'
import type { FilterCondition } from '#engine/query/filter_ast'
import { demoModel, errorOf, valueOf } from '#tests/unit/_query_fixtures'

export const ORDER = 'bookstore_Order'
export const CUSTOMER_ID = '5b9f3c1e-8d2a-4b7e-9c1f-0a2b3c4d5e6f'

export async function parse(filter: unknown, entity = ORDER) {
  return parseFilter(await demoModel(), entity, filter)
}

/** The first root condition (`value` readable whatever its family). */
export async function only(
  filter: unknown,
  entity = ORDER
): Promise<FilterCondition & { value?: unknown }> {
  const root = valueOf(await parse(filter, entity)).root
  return root.conditions[0] as FilterCondition
}

export async function details(filter: unknown, entity = ORDER) {
  return errorOf(await parse(filter, entity))
}

export const c = (property: string, operator: string, value?: unknown) =>
  value === undefined ? { property, operator } : { property, operator, value }
