/**
 * The shape an SQL dataset must have: one SELECT (or WITH ... SELECT) statement, no system
 * tables. It also runs in a read-only transaction (sql.ts), so this check is the clear error,
 * not the only guard.
 *
 * The check reads the text as both databases do. Where SQLite and PostgreSQL would split it into
 * different tokens (`[x]` and backtick identifiers, `$tag$` and `E'\''` strings, nested or
 * `\r`-ended comments), the check cannot know which reading runs, so such text is refused: a
 * quote the check saw differently would hide running text inside what it took for a string.
 */

/** System tables (users, clients, tokens, audit, report definitions) are never readable. */
const SYSTEM_TABLES =
  /\b(?:mg_\w+|users|oauth_\w+|rate_limits|adonis_schema\w*|sqlite_\w+|pg_\w+|information_schema)\b/i

/** Functions that run SQL given as text, read or write server files, or change settings. */
const FUNCTIONS =
  /\b(?:\w*_to_xml\w*|dblink\w*|lo_\w+|set_config|load_extension|readfile|writefile)\s*\(/i

const WRITES =
  /\b(?:insert|update|delete|merge|drop|alter|create|truncate|grant|revoke|copy|attach|pragma|vacuum|call|lock|set)\b/i

type Skeleton = { text: string } | { problem: string }

/** Where the quoted text opened at `i` ends (the quote doubled is an escape), or -1. */
function closing(sql: string, i: number, quote: string): number {
  let j = i + 1
  while (j < sql.length) {
    if (sql[j] === quote && sql[j + 1] === quote) j += 2
    else if (sql[j] === quote) return j
    else j++
  }
  return -1
}

/**
 * The statement without comments and string literals (for shape checks only); double-quoted
 * identifiers stay visible (a table name may be quoted).
 */
function skeleton(sql: string): Skeleton {
  let out = ''
  for (let i = 0; i < sql.length; i++) {
    const c = sql[i]
    if (c === '-' && sql[i + 1] === '-') {
      const end = sql.slice(i).search(/[\r\n]/)
      // PostgreSQL ends a `--` comment at \r, SQLite only at \n.
      if (end >= 0 && sql[i + end] === '\r' && sql[i + end + 1] !== '\n')
        return { problem: 'a carriage return ends a comment differently per database' }
      i = end < 0 ? sql.length : i + end
      out += ' '
    } else if (c === '/' && sql[i + 1] === '*') {
      const end = sql.indexOf('*/', i + 2)
      if (end < 0) return { problem: 'unterminated comment' }
      // PostgreSQL nests block comments, SQLite does not.
      if (sql.slice(i + 2, end).includes('/*')) return { problem: 'nested comments' }
      i = end + 1
      out += ' '
    } else if (c === "'" || c === '"') {
      if (c === "'" && /[eE]/.test(sql[i - 1] ?? '') && !/[\w$]/.test(sql[i - 2] ?? ''))
        return { problem: "E'...' strings (backslash escapes) are not allowed" }
      const j = closing(sql, i, c)
      if (j < 0) return { problem: 'unterminated quoted text' }
      out += c === '"' ? sql.slice(i, j + 1) : "''"
      i = j
    } else if (c === '[' || c === '`')
      return { problem: `${c} is not allowed: quote identifiers with "` }
    else if (c === '$' && sql[i + 1] !== '{')
      return { problem: '$ is only allowed in ${alias} placeholders (no $tag$ quoting)' }
    else if (c === '?' || c === '\\')
      return { problem: `${c} is not allowed outside string literals (use \${alias})` }
    else out += c
  }
  return { text: out }
}

/** A problem message, or null when the text is one read-only query. */
export function checkSql(sql: string): string | null {
  const read = skeleton(sql)
  if ('problem' in read) return read.problem
  const trimmed = read.text.trim().replace(/;\s*$/, '')
  if (trimmed.includes(';')) return 'one statement only'
  if (!/^(?:select|with)\b/i.test(trimmed)) return 'must be a SELECT (or WITH ... SELECT) statement'
  if (WRITES.test(trimmed.replace(/"[^"]*"/g, '')))
    return 'must only read: no data-changing keywords'
  const system = SYSTEM_TABLES.exec(trimmed.replace(/"/g, ' '))
  if (system) return `system table '${system[0]}' is not readable from reports`
  const fn = FUNCTIONS.exec(trimmed.replace(/"/g, ' '))
  if (fn) return `function '${fn[0].replace(/\s*\($/, '')}' is not allowed in reports`
  return null
}
