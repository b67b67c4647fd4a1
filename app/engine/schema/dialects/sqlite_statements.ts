/**
 * knex's better-sqlite3 client prepares every statement anew (~100 µs each); the same SQL text
 * comes back constantly on the API hot path, so prepared statements are kept per connection:
 * `conn.prepare` answers from the cache. Used on the pool's connections (config/database.ts)
 * and on the read pipeline's own connection (direct_reads.ts). Bounded: the cache starts over
 * past 1000 distinct statements (e.g. IN lists of many sizes).
 */
const MAX_STATEMENTS = 1000

export function cachePreparedStatements(conn: any) {
  const prepare = conn.prepare.bind(conn)
  const cache = new Map<string, unknown>()
  conn.prepare = (sql: string) => {
    let statement = cache.get(sql)
    if (!statement) {
      if (cache.size >= MAX_STATEMENTS) cache.clear()
      statement = prepare(sql)
      cache.set(sql, statement)
    }
    return statement
  }
}
