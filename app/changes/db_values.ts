/**
 * How the dialects hand back booleans: PostgreSQL as true/false, SQLite as 1/0 (and text '1'
 * or 't' where a value went through a string). One reading for system tables and models.
 */
export function dbBoolean(value: unknown): boolean {
  return value === true || value === 1 || value === '1' || value === 't'
}
