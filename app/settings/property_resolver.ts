/**
 * The one resolver of `svc.*` properties. Precedence, lowest first:
 *   registry defaults < config/application.properties < environment (SVC_REST_...) < settings
 *   stored in the database (mg_settings, editable at runtime).
 * Reads are synchronous from memory; stored settings are reloaded whenever the settings version
 * changes (this instance's own writes, or another instance's through the change watcher).
 */
import { readFile } from 'node:fs/promises'
import { parse as parseProperties } from 'dot-properties'
import type { QueryClientContract, TransactionClientContract } from '@adonisjs/lucid/types/database'
import { coerce, findProperty, propertyNamesForEnv, type PropertyValue } from './properties.js'
import { bumpVersion, readVersion } from '#changes/versions'

export type SettingsSource = 'default' | 'file' | 'env' | 'database'

/** A bad value in the file or the environment must say where it came from to be fixable. */
function named<T>(origin: string, convert: () => T): T {
  try {
    return convert()
  } catch (error) {
    throw new Error(`${origin}: ${(error as Error).message}`)
  }
}

export class PropertyResolver {
  #file = new Map<string, PropertyValue>()
  #env = new Map<string, PropertyValue>()
  #stored = new Map<string, PropertyValue>()
  #storedRaw = new Map<string, unknown>()
  version = -1

  /** Loads config/application.properties and the environment (once, at boot). */
  async loadStatic(propertiesFile: string | null, env: NodeJS.ProcessEnv = process.env) {
    this.#file.clear()
    this.#env.clear()
    if (propertiesFile) {
      const text = await readFile(propertiesFile, 'utf8').catch((e) =>
        e.code === 'ENOENT' ? '' : Promise.reject(e)
      )
      for (const [name, raw] of Object.entries(parseProperties(text) as Record<string, string>)) {
        const definition = findProperty(name)
        if (!definition) throw new Error(`${propertiesFile}: unknown property '${name}'`)
        this.#file.set(
          name,
          named(propertiesFile, () => coerce(definition, raw))
        )
      }
    }
    for (const [envName, raw] of Object.entries(env)) {
      if (!envName.startsWith('SVC_') || raw === undefined) continue
      for (const name of propertyNamesForEnv(envName))
        this.#env.set(
          name,
          named(envName, () => coerce(findProperty(name)!, raw))
        )
    }
  }

  /** Reloads the stored settings when their version changed. */
  async refresh(client: QueryClientContract, force = false) {
    const version = await readVersion(client, 'settings')
    if (!force && version === this.version) return false
    const rows = await client.from('mg_settings').select('key', 'value')
    // Built aside and swapped: one bad row (written by hand, or a property whose type changed)
    // used to throw half-way, leaving the stored layer cleared and the version never caught up.
    // It is skipped instead, so that the property falls back to env/file/default.
    const stored = new Map<string, PropertyValue>()
    const storedRaw = new Map<string, unknown>()
    for (const row of rows) {
      const definition = findProperty(row.key)
      if (!definition) continue
      try {
        const raw = JSON.parse(row.value)
        stored.set(row.key, coerce(definition, raw))
        storedRaw.set(row.key, raw)
      } catch {
        continue
      }
    }
    this.#stored = stored
    this.#storedRaw = storedRaw
    this.version = version
    return true
  }

  get<T extends PropertyValue = PropertyValue>(name: string): T {
    const definition = findProperty(name)
    if (!definition) throw new Error(`unknown property '${name}'`)
    // Read on every REST request: the layers in order, without an array of them per call.
    if (this.#stored.has(name)) return this.#stored.get(name) as T
    if (this.#env.has(name)) return this.#env.get(name) as T
    if (this.#file.has(name)) return this.#file.get(name) as T
    return definition.default as T
  }

  /** The value and source that apply without the stored layer (what a DELETE falls back to). */
  fallback(name: string): { value: PropertyValue; source: SettingsSource } {
    const definition = findProperty(name)
    if (!definition) throw new Error(`unknown property '${name}'`)
    if (this.#env.has(name)) return { value: this.#env.get(name)!, source: 'env' }
    if (this.#file.has(name)) return { value: this.#file.get(name)!, source: 'file' }
    return { value: definition.default, source: 'default' }
  }

  source(name: string): SettingsSource {
    if (this.#stored.has(name)) return 'database'
    if (this.#env.has(name)) return 'env'
    return this.#file.has(name) ? 'file' : 'default'
  }

  /** Every property name set in some layer, e.g. to enumerate `svc.authserver.client.*`. */
  names(prefix = 'svc.'): string[] {
    const all = new Set([...this.#file.keys(), ...this.#env.keys(), ...this.#stored.keys()])
    return [...all].filter((n) => n.startsWith(prefix)).sort()
  }

  /** The stored settings exactly as written (for export). */
  storedSettings(): Record<string, unknown> {
    return Object.fromEntries([...this.#storedRaw].sort(([a], [b]) => a.localeCompare(b)))
  }
}

/** What `writeSettings(settings)` would change, as change lines for the import output. */
export async function describeSettingsChanges(
  client: QueryClientContract,
  settings: Record<string, unknown>
): Promise<string[]> {
  const rows = await client.from('mg_settings').select('key', 'value')
  const current = new Map(rows.map((r) => [r.key, r.value as string]))
  const changes: string[] = []
  for (const [key, value] of Object.entries(settings)) {
    if (value === null) {
      if (current.has(key)) changes.push(`setting ${key}: removed`)
    } else if (!current.has(key)) changes.push(`setting ${key}: set`)
    else if (current.get(key) !== JSON.stringify(value)) changes.push(`setting ${key}: changed`)
  }
  return changes
}

/**
 * Writes stored settings inside the caller's transaction (`null` removes one). Returns whether
 * anything changed; bumps the settings version when it did.
 */
export async function writeSettings(
  trx: TransactionClientContract,
  settings: Record<string, unknown>
) {
  const rows = await trx.from('mg_settings').select('key', 'value')
  const current = new Map(rows.map((r) => [r.key, r.value as string]))
  let changed = false
  for (const [key, value] of Object.entries(settings)) {
    const definition = findProperty(key)
    if (!definition) throw new Error(`unknown property '${key}'`)
    if (value === null) {
      if (current.has(key)) {
        await trx.from('mg_settings').where('key', key).delete()
        changed = true
      }
      continue
    }
    coerce(definition, value)
    const json = JSON.stringify(value)
    if (current.get(key) === json) continue
    if (current.has(key))
      await trx
        .from('mg_settings')
        .where('key', key)
        .update({ value: json, updated_at: new Date() })
    else await trx.table('mg_settings').insert({ key, value: json, updated_at: new Date() })
    changed = true
  }
  if (changed) await bumpVersion(trx, 'settings')
  return changed
}
