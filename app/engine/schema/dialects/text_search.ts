/**
 * Dialect facts for text prefix search (`startsWith`), kept with the other dialect differences:
 *
 * - `prefixIndexName`: the name of the PostgreSQL companion index (`lower(col) text_pattern_ops`)
 *   that pg.ts creates next to every index led by a string/text attribute;
 * - `prefixRangeFolding`: whether `>=`/`<` on a string column of this connection compare code
 *   points (so that `prefixRange` of query/operators/like.ts may be ANDed to the LIKE) and how
 *   its `lower()` folds case. Probed once per connection and cached.
 */
import { createHash } from 'node:crypto'
import type { QueryClientContract } from '@adonisjs/lucid/types/database'
import { MAX_SQL_IDENTIFIER } from '../../metadata/naming.js'
import type { LikeCondition } from '../../query/filter_ast.js'
import type { CaseFolding, PrefixRange } from '../../query/operators/like.js'
import { prefixCaseRanges, prefixRange } from '../../query/operators/like.js'

const PREFIX = '__mg_lp_'

/**
 * `__mg_lp_<index name>`, hashed down to 63 characters like `constraintName`. Model names start
 * with a letter (TABLE_NAME), so no table or explicit index name can collide with it.
 */
export function prefixIndexName(indexName: string): string {
  const full = `${PREFIX}${indexName}`
  if (full.length <= MAX_SQL_IDENTIFIER) return full
  const hash = createHash('sha1').update(full).digest('hex').slice(0, 10)
  return `${full.slice(0, MAX_SQL_IDENTIFIER - 11)}_${hash}`
}

/** Whether an index name is a companion (the inspector reports indexes of the model only). */
export function isPrefixIndexName(name: string): boolean {
  return name.startsWith(PREFIX)
}

const C_LOCALES = new Set(['c', 'posix'])
/** glibc's `C.UTF-8` (2.35+, and Debian's long before) collates by code point. */
const C_UTF8_LOCALES = new Set(['c.utf-8', 'c.utf8'])

/**
 * Pairs that a code-point order sorts one way and every linguistic collation the other way
 * (case before letter, punctuation not ignored, accents not secondary): a last line of defence
 * should a locale named C.UTF-8 not collate by code point.
 */
const ORDER_PROBES: [string, string][] = [
  ['B', 'a'],
  ['Z', 'a'],
  ['a-c', 'ab'],
  ['ab', 'a\u00e0'],
  ['a b', 'a-b'],
]

/**
 * PostgreSQL: the database's default collation and ctype (columns are created without COLLATE).
 * Range bounds are valid when the collation is `C`/`POSIX` (byte order by definition) or a libc
 * `C.UTF-8` that the probes confirm; `lower()` folds ASCII only under a `C`/`POSIX` ctype and
 * by Unicode's simple mapping under `C.UTF-8`. Anything else (ICU, `en_US.UTF-8`, Turkish case
 * rules): null, no range, the LIKE alone (served by the companion index).
 */
async function probePg(client: QueryClientContract): Promise<CaseFolding | null> {
  const result = await client.rawQuery(
    `select * from pg_database where datname = current_database()`
  )
  const row = result.rows[0] ?? {}
  if (row.datlocprovider !== undefined && row.datlocprovider !== 'c') return null
  const collate = String(row.datcollate ?? '').toLowerCase()
  const ctype = String(row.datctype ?? '').toLowerCase()
  if (!C_LOCALES.has(collate) && !C_UTF8_LOCALES.has(collate)) return null
  const folding: CaseFolding | null = C_LOCALES.has(ctype)
    ? 'ascii'
    : C_UTF8_LOCALES.has(ctype)
      ? 'unicode'
      : null
  if (!folding) return null
  const checks = ORDER_PROBES.map((_, i) => `cast(? as text) < cast(? as text) as p${i}`)
  const probe = await client.rawQuery(`select ${checks.join(', ')}`, ORDER_PROBES.flat())
  const answers = probe.rows[0] ?? {}
  return ORDER_PROBES.every((_, i) => answers[`p${i}`] === true) ? folding : null
}

/**
 * SQLite: string columns use the BINARY collation (the DDL declares none), which compares UTF-8
 * bytes on a UTF-8 database; the built-in `lower()` and LIKE fold ASCII only.
 */
async function probeSqlite(client: QueryClientContract): Promise<CaseFolding | null> {
  const rows = await client.rawQuery(`pragma encoding`)
  return String(rows[0]?.encoding ?? '').toUpperCase() === 'UTF-8' ? 'ascii' : null
}

const folding = new Map<string, CaseFolding | null>()
const pending = new Map<string, Promise<CaseFolding | null>>()

/**
 * How a prefix range may be computed on this connection (see above), or null when it must not
 * be used. Probed on first use and cached per connection name.
 */
export async function prefixRangeFolding(client: QueryClientContract): Promise<CaseFolding | null> {
  const key = client.connectionName
  if (folding.has(key)) return folding.get(key)!
  let probe = pending.get(key)
  if (!probe) {
    probe = (client.dialect.name === 'postgres' ? probePg(client) : probeSqlite(client))
      .catch(() => null)
      .then((value) => {
        folding.set(key, value)
        pending.delete(key)
        return value
      })
    pending.set(key, probe)
  }
  return probe
}

/**
 * The answer of `prefixRangeFolding` without waiting. PostgreSQL: `undefined` until the probe of
 * this connection finished (callers then emit no range, which is always correct), and starts
 * it. SQLite: `ascii` at once (databases are created UTF-8), corrected by the probe should the
 * file be a UTF-16 database made elsewhere.
 */
export function knownPrefixRangeFolding(
  client: QueryClientContract
): CaseFolding | null | undefined {
  const key = client.connectionName
  if (folding.has(key)) return folding.get(key)
  // Never probed inside a transaction: a failing statement would abort it on PostgreSQL.
  if (!client.isTransaction) void prefixRangeFolding(client)
  return client.dialect.name === 'postgres' ? undefined : 'ascii'
}

/**
 * The index-friendly bounds to AND to a `startsWith` condition on this connection
 * (`col >= from AND col < below`), or null when none may or need be added: not `startsWith`,
 * a collation that does not compare code points, an empty value.
 */
export function startsWithRange(
  client: QueryClientContract,
  condition: Pick<LikeCondition, 'match' | 'negated' | 'value'>
): PrefixRange | null {
  if (condition.match !== 'startsWith' || condition.negated) return null
  const caseFolding = knownPrefixRangeFolding(client)
  return caseFolding ? prefixRange(condition.value, caseFolding) : null
}

/**
 * The ranges to OR and AND to a `startsWith` condition (each `col >= from AND col < below`), or
 * null. `ordered`: the statement is ordered by the same column first. Then the one case-spanning
 * range of `startsWithRange` (an index walk in that order finds the first matches at once);
 * otherwise, under ASCII folding (SQLite), one exact range per case variant
 * (`prefixCaseRanges`): a selective prefix then reads only its own rows, where the wide range
 * made SQLite's planner scan half a table (1M rows, `b0512` sorted by another column, the SQL
 * alone: 100 ms -> under 1 ms).
 */
export function startsWithRanges(
  client: QueryClientContract,
  condition: Pick<LikeCondition, 'match' | 'negated' | 'value'>,
  ordered: boolean
): PrefixRange[] | null {
  const range = startsWithRange(client, condition)
  if (range && !ordered && knownPrefixRangeFolding(client) === 'ascii') {
    return prefixCaseRanges(condition.value) ?? [range]
  }
  return range ? [range] : null
}
