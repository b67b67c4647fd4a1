/*
 * The translation grid's model: one row per model key with a cell per locale, the kind of each
 * key, what counts as missing, filtering, and the unsaved edits.
 */
import type { LocaleMessages, MessageEntry } from '../api/messages'

export type KeyKind = 'entity' | 'attribute' | 'enum' | 'value'

export interface GridRow {
  key: string
  kind: KeyKind
  cells: Record<string, MessageEntry | undefined>
}

/** Unsaved texts per locale and key ('' removes the stored text). */
export type Edits = Record<string, Record<string, string>>

export function kindOf(key: string, enumNames: ReadonlySet<string>): KeyKind {
  if (enumNames.has(key)) return 'enum'
  const dot = key.lastIndexOf('.')
  if (dot > 0 && enumNames.has(key.slice(0, dot))) return 'value'
  return key.includes('.') ? 'attribute' : 'entity'
}

/** Rows in the order the server gives the keys (code-unit order: an entity before its attributes). */
export function buildRows(data: LocaleMessages[], enumNames: ReadonlySet<string>): GridRow[] {
  const rows = new Map<string, GridRow>()
  for (const locale of data) {
    for (const entry of locale.messages) {
      let row = rows.get(entry.key)
      if (!row) {
        row = { key: entry.key, kind: kindOf(entry.key, enumNames), cells: {} }
        rows.set(entry.key, row)
      }
      row.cells[locale.locale] = entry
    }
  }
  return [...rows.values()]
}

/**
 * Missing: nothing stored for this locale and nothing else translates it (a caption or the
 * language's text would): only the readable default derived from the name would be shown.
 */
export const isMissing = (entry: MessageEntry | undefined) =>
  !!entry && entry.stored === null && (entry.defaultSource ?? 'name') === 'name'

export type KindFilter = 'all' | 'entities' | 'enums'

export interface RowFilter {
  query: string
  onlyMissing: boolean
  kind: KindFilter
  locales: string[]
}

export function filterRows(rows: GridRow[], filter: RowFilter): GridRow[] {
  const q = filter.query.trim().toLowerCase()
  return rows.filter((row) => {
    if (filter.kind === 'entities' && (row.kind === 'enum' || row.kind === 'value')) return false
    if (filter.kind === 'enums' && (row.kind === 'entity' || row.kind === 'attribute')) return false
    if (filter.onlyMissing && !filter.locales.some((l) => isMissing(row.cells[l]))) return false
    if (!q) return true
    if (row.key.toLowerCase().includes(q)) return true
    return filter.locales.some((l) => {
      const cell = row.cells[l]
      return (cell?.stored ?? cell?.default ?? '').toLowerCase().includes(q)
    })
  })
}

/** The edits that differ from what is stored, as PUT bodies per locale. */
export function changesOf(edits: Edits, rows: Map<string, GridRow>): Record<string, Record<string, string | null>> {
  const out: Record<string, Record<string, string | null>> = {}
  for (const [locale, texts] of Object.entries(edits)) {
    for (const [key, text] of Object.entries(texts)) {
      const stored = rows.get(key)?.cells[locale]?.stored ?? null
      const next = text.trim() === '' ? null : text
      if (next === stored) continue
      ;(out[locale] ??= {})[key] = next
    }
  }
  return out
}

export const countChanges = (changes: Record<string, Record<string, string | null>>) =>
  Object.values(changes).reduce((n, texts) => n + Object.keys(texts).length, 0)

/** `$['bookstore_Order.nope']` (a 422 path inside the PUT body) -> the key. */
export function keyOfProblem(path: string): string | null {
  const match = /^\$\['(.*)'\]$/.exec(path)
  return match ? (match[1] ?? '').replace(/\\'/g, "'").replace(/\\\\/g, '\\') : null
}

/** Java's form of a locale (LOCALE_CODE of the server): `en`, `de`, `pt_BR`, `es_419`. */
export const LOCALE_FORM = /^[a-z]{2,3}(_([A-Z]{2}|[0-9]{3}))?$/
