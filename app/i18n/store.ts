/**
 * Stored translations (mg_messages, the `messages` section of the application definition), held
 * in memory per instance. Reloaded whenever the 'messages' version changes: this instance's own
 * imports (Engine.refresh) or another instance's (the change watcher).
 */
import type { QueryClientContract } from '@adonisjs/lucid/types/database'
import { readVersion } from '#changes/versions'

export interface MessageRow {
  id: number
  locale: string
  key: string
  value: string
}

/** Every stored translation, ordered by locale and key. */
export async function readMessageRows(client: QueryClientContract): Promise<MessageRow[]> {
  const rows = await client.from('mg_messages').select('id', 'locale', 'key', 'value')
  return rows
    .map((r) => ({ id: Number(r.id), locale: r.locale, key: r.key, value: r.value }))
    .sort((a, b) => compare(a.locale, b.locale) || compare(a.key, b.key))
}

/** Code-unit order, as Java's String.compareTo (the upstream maps are sorted this way). */
export function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

export class MessageStore {
  /** The 'messages' version the rows were read at (-1: never loaded). */
  version = -1
  /** Incremented on every reload: caches built from the rows are keyed by it. */
  generation = 0
  #byLocale = new Map<string, ReadonlyMap<string, string>>()

  /** Reloads the rows when the version changed (or when forced); true when it reloaded. */
  async refresh(client: QueryClientContract, force = false): Promise<boolean> {
    const version = await readVersion(client, 'messages')
    if (!force && version === this.version) return false
    const byLocale = new Map<string, Map<string, string>>()
    for (const row of await readMessageRows(client)) {
      if (!byLocale.has(row.locale)) byLocale.set(row.locale, new Map())
      byLocale.get(row.locale)!.set(row.key, row.value)
    }
    this.#byLocale = byLocale
    this.version = version
    this.generation++
    return true
  }

  /** The stored translations of one locale (exactly that locale, no fallback). */
  get(locale: string): ReadonlyMap<string, string> | undefined {
    return this.#byLocale.get(locale)
  }

  locales(): string[] {
    return [...this.#byLocale.keys()].sort(compare)
  }
}
