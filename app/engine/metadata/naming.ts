/**
 * Identifier rules and the mapping of model names to SQL names. Every name that reaches DDL
 * was checked here first: only [a-z0-9_] survives into table and column names, and SQL
 * identifiers are always quoted by the dialect on top of that.
 */
import { createHash } from 'node:crypto'

export const MAX_SQL_IDENTIFIER = 63

/** `bookstore_Order`, `ref$Colour`, `Customer`. */
export const ENTITY_NAME = /^[A-Za-z][A-Za-z0-9]*(?:[_$][A-Za-z0-9]+)*$/
/** Java-field-like attribute names: `number`, `firstName`, `line_2`. */
export const ATTRIBUTE_NAME = /^[A-Za-z][A-Za-z0-9_]*$/
/** Fully qualified enum names: `com.example.bookstore.OrderStatus`. */
export const ENUM_NAME = /^[A-Za-z_][A-Za-z0-9_$]*(?:\.[A-Za-z_][A-Za-z0-9_$]*)*$/
/** Explicit table names given in a definition. */
export const TABLE_NAME = /^[a-z][a-z0-9_]*$/
/** Named fetch plans (the `_`-prefixed names are built in). */
export const FETCH_PLAN_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/

/** Table prefixes that belong to the server itself. */
export const RESERVED_TABLE_PREFIXES = ['mg_', 'adonis_', 'auth_', 'sqlite_', 'pg_', '__mg']

/** `firstName` -> `first_name`, `ISBNCode` -> `isbn_code`, `line2` -> `line2`. */
export function snakeCase(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .toLowerCase()
}

/** `bookstore_OrderLine` -> `bookstore_order_line`, `ref$Colour` -> `ref_colour`. */
export function tableNameFor(entityName: string): string {
  return entityName
    .split(/[_$]/)
    .map((part) => snakeCase(part))
    .join('_')
}

export function columnNameFor(attributeName: string): string {
  return snakeCase(attributeName)
}

export function isReservedTableName(table: string): boolean {
  return RESERVED_TABLE_PREFIXES.some((prefix) => table.startsWith(prefix))
}

/**
 * Constraint and index names are schema-wide in PostgreSQL and limited to 63 bytes: long names
 * keep a readable head and get a short hash so they stay unique and deterministic.
 */
export function constraintName(prefix: string, table: string, columns: string[]): string {
  const full = `${prefix}_${table}_${columns.join('_')}`
  if (full.length <= MAX_SQL_IDENTIFIER) return full
  const hash = createHash('sha1').update(full).digest('hex').slice(0, 10)
  return `${full.slice(0, MAX_SQL_IDENTIFIER - 11)}_${hash}`
}
