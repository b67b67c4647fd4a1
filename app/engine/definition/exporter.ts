/**
 * `app:export`: the stored application as a definition document. Importing the result into the
 * same application plans no operation (round trip).
 */
import type { Database } from '@adonisjs/lucid/database'
import YAML from 'yaml'
import { loadModelDefinition } from '../metadata/store.js'

export async function exportDocument(db: Database): Promise<Record<string, unknown>> {
  const client = db.connection()
  const model = await loadModelDefinition(client)
  const rows = await client.from('mg_settings').select('key', 'value').orderBy('key')
  const settings = Object.fromEntries(rows.map((r) => [r.key, JSON.parse(r.value)]))
  return {
    formatVersion: 1,
    enums: model.enums,
    entities: model.entities,
    fetchPlans: model.fetchPlans,
    ...(rows.length ? { settings } : {}),
  }
}

export function renderDocument(document: Record<string, unknown>, format: 'json' | 'yaml'): string {
  return format === 'yaml' ? YAML.stringify(document) : JSON.stringify(document, null, 2) + '\n'
}
