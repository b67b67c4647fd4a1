/**
 * The shape an SQL dataset must have: one SELECT (or WITH ... SELECT) statement, no system
 * tables. It also runs in a read-only transaction (sql.ts), so this check is the clear error,
 * not the only guard.
 */

/** System tables (users, clients, tokens, audit, report definitions) are never readable. */
const SYSTEM_TABLES =
  /\b(?:mg_\w+|users|oauth_\w+|rate_limits|adonis_schema\w*|sqlite_\w+|pg_\w+|information_schema)\b/i

/** The statement without comments and string literals (for shape checks only). */
function skeleton(sql: string): string | null {
  let out = ''
  for (let i = 0; i < sql.length; i++) {
    const c = sql[i]
    if (c === '-' && sql[i + 1] === '-') {
      const end = sql.indexOf('\n', i)
      i = end < 0 ? sql.length : end
      out += ' '
    } else if (c === '/' && sql[i + 1] === '*') {
      const end = sql.indexOf('*/', i + 2)
      if (end < 0) return null
      i = end + 1
      out += ' '
    } else if (c === "'" || c === '"') {
      let j = i + 1
      while (j < sql.length && !(sql[j] === c && sql[j + 1] !== c)) j += sql[j] === c ? 2 : 1
      if (j >= sql.length) return null
      // Quoted identifiers stay visible (a table name may be quoted); string literals do not.
      out += c === '"' ? sql.slice(i, j + 1) : "''"
      i = j
    } else out += c
  }
  return out
}

/** A problem message, or null when the text is one read-only query. */
export function checkSql(sql: string): string | null {
  const text = skeleton(sql)
  if (text === null) return 'unterminated comment or quoted text'
  const trimmed = text.trim().replace(/;\s*$/, '')
  if (trimmed.includes(';')) return 'one statement only'
  if (!/^(?:select|with)\b/i.test(trimmed)) return 'must be a SELECT (or WITH ... SELECT) statement'
  if (
    /\b(?:insert|update|delete|merge|drop|alter|create|truncate|grant|revoke|copy|attach|pragma|vacuum|call|lock|set)\b/i.test(
      trimmed.replace(/"[^"]*"/g, '')
    )
  )
    return 'must only read: no data-changing keywords'
  const system = SYSTEM_TABLES.exec(trimmed.replace(/"/g, ' '))
  if (system) return `system table '${system[0]}' is not readable from reports`
  return null
}
