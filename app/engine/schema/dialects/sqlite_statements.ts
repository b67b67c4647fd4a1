/**
 * knex's better-sqlite3 client prepares every statement anew (~100 µs each); the same SQL text
 * comes back constantly on the API hot path, so prepared statements are kept per connection:
 * `conn.prepare` answers from the cache. Used on the pool's connections (config/database.ts);
 * the read pipeline's own connection keeps its statements with their row builders
 * (sqlite_rows.ts). Bounded: a cache starts over past 1000 distinct statements (e.g. IN lists of
 * many sizes).
 */
const MAX_STATEMENTS = 1000

/** `make(sql)` remembered per SQL text, at most MAX_STATEMENTS texts (then it starts over). */
export function perStatementText<T>(make: (sql: string) => T): (sql: string) => T {
  const cache = new Map<string, T>()
  return (sql) => {
    let value = cache.get(sql)
    if (value === undefined) {
      if (cache.size >= MAX_STATEMENTS) cache.clear()
      value = make(sql)
      cache.set(sql, value)
    }
    return value
  }
}

export function cachePreparedStatements(conn: any) {
  conn.prepare = perStatementText(conn.prepare.bind(conn))
}
