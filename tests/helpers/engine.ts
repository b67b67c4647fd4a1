/**
 * Helpers for tests that change the model through the engine.
 */
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import { Engine, inspectTable, type ApplyResult } from '#engine/main'

export async function engine(): Promise<Engine> {
  return app.container.make(Engine)
}

/** Imports a definition document (object) and returns the result. */
export async function importDoc(doc: Record<string, unknown>, options: { dryRun?: boolean; allowDataLoss?: boolean } = {}): Promise<ApplyResult> {
  const e = await engine()
  return e.importDocument({ formatVersion: 1, ...doc }, options)
}

export function table(name: string) {
  return inspectTable(db.connection(), name)
}

/** A fingerprint of system rows and schema, to prove that a refused change changed nothing. */
export async function snapshotState(): Promise<string> {
  const client = db.connection()
  const parts: unknown[] = []
  for (const t of ['mg_versions', 'mg_entities', 'mg_attributes', 'mg_enums', 'mg_enum_values', 'mg_fetch_plans', 'mg_indexes', 'mg_settings', 'mg_schema_changelog']) {
    parts.push(await client.from(t).select('*').orderByRaw('1'))
  }
  const { listTables } = await import('#engine/main')
  const tables = [...(await listTables(client))].sort()
  for (const t of tables) parts.push(await inspectTable(client, t))
  return JSON.stringify(parts, (_k, v) => (v instanceof Date ? v.toISOString() : v))
}
