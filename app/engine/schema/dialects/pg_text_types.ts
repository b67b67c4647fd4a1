/**
 * The read pipeline's PostgreSQL statements (direct_reads.ts) take `date`, `timestamp` and
 * `timestamptz` columns as text, not as the Date objects node-postgres makes by default: the
 * entity JSON writes them back as text (data/read/values.ts), so the default parse (a regex and
 * a Date per value) followed by the formatting back was a round trip that cost about a tenth of
 * a list's CPU. Only these statements: every other query of the server keeps pg's parsers.
 *
 * Each text is brought to what the Date round trip gave, so the JSON is unchanged:
 * - `date` `2025-01-02`: as it is;
 * - `timestamp` `2025-01-02 03:04:07.123456`: the fraction cut to milliseconds (a Date's
 *   precision); values.ts writes `2025-01-02T03:04:07.123`;
 * - `timestamptz` in a UTC session (`+00`): the ISO instant `2025-01-02T03:04:07.123Z`, as
 *   `toISOString` writes it.
 * Anything else (another session time zone, BC years, infinity) goes through pg's own parser,
 * as before.
 */
import pg from 'pg'

const DATE = 1082
const TIMESTAMP = 1114
const TIMESTAMPTZ = 1184

const LOCAL = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d+)?$/
const UTC = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d)(?:\.(\d+))?\+00$/

const defaultParser = (oid: number) => pg.types.getTypeParser(oid, 'text') as (t: string) => unknown

function date(text: string): unknown {
  return text.length === 10 ? text : defaultParser(DATE)(text)
}

function timestamp(text: string): unknown {
  if (!LOCAL.test(text)) return defaultParser(TIMESTAMP)(text)
  const point = text.indexOf('.', 19)
  return point < 0 ? text : text.slice(0, point + 4)
}

function timestamptz(text: string): unknown {
  const m = UTC.exec(text)
  if (!m) return defaultParser(TIMESTAMPTZ)(text)
  return `${m[1]}T${m[2]}.${(m[3] ?? '').padEnd(3, '0').slice(0, 3)}Z`
}

/** pg's `types` option: these three as text, every other type as pg parses it. */
export const TEXT_TEMPORAL_TYPES = {
  getTypeParser(oid: number, format?: string) {
    if (format !== 'binary') {
      if (oid === DATE) return date
      if (oid === TIMESTAMP) return timestamp
      if (oid === TIMESTAMPTZ) return timestamptz
    }
    return pg.types.getTypeParser(oid, format as any)
  },
}
