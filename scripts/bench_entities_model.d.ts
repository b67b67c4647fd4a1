/** Types of bench_entities_model.js (imported by tests/functional/entities_bench_floor.spec.ts). */
export const uuid: (tag: string, n: number) => string
export const itemId: (n: number) => string
export const categoryId: (n: number) => string
export const CATEGORIES: number
export const ORDERS_PER_CUSTOMER: number
export const LINES_PER_ORDER: number
export const ENTITIES: Record<string, unknown>[]
export const ENUMS: Record<string, unknown>[]
export const FETCH_PLANS: Record<string, unknown>[]
export const NESTED_PLAN: string
export const SEARCH_FILTER: string
export function seedStatements(pg: boolean, rows: number): string[]
