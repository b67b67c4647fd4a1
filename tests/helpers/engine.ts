/**
 * Helpers for tests that change the model through the engine.
 */
import { randomUUID } from 'node:crypto'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import type { Assert } from '@japa/assert'
import { Engine, inspectSchema, inspectTable, type InspectedTable } from '#engine/main'
import { DataManager } from '#engine/data/data_manager'
import { FULL_ACCESS, type Permissions } from '#security/policy_index'
import { compilePermissions } from '#security/compiler'
import { ANONYMOUS } from '#security/subject'
import { definitions, type ImportResult } from '#definition/main'

type InspectedColumn = InspectedTable['columns'][number]
type ImportOptions = { dryRun?: boolean; allowDataLoss?: boolean }

export async function engine(): Promise<Engine> {
  return app.container.make(Engine)
}

/** Imports a definition document (object) and returns the result. */
export async function importDoc(
  doc: Record<string, unknown>,
  options: ImportOptions = {}
): Promise<ImportResult> {
  const e = await engine()
  return definitions(e).importDocument({ formatVersion: 1, ...doc }, options)
}

/** Imports a document that must apply; throws with the problems/refusals otherwise. */
export async function applyDoc(
  doc: Record<string, unknown>,
  options: { allowDataLoss?: boolean } = {}
): Promise<ImportResult> {
  const result = await importDoc(doc, options)
  if (result.status !== 'applied') {
    const details = JSON.stringify({ problems: result.problems, refusals: result.refusals })
    throw new Error(`expected 'applied', got '${result.status}': ${details}`)
  }
  return result
}

/**
 * Imports `doc` expecting a refusal whose message matches `message`, and proves with
 * snapshotState() that nothing at all changed.
 */
export async function expectRefused(
  assert: Assert,
  doc: Record<string, unknown>,
  message: RegExp,
  options: ImportOptions = {}
): Promise<ImportResult> {
  const before = await snapshotState()
  const result = await importDoc(doc, options)
  assert.equal(result.status, 'refused', JSON.stringify(result.problems))
  const messages = result.refusals.map((r) => r.message)
  assert.isTrue(
    messages.some((m) => message.test(m)),
    `no refusal matches ${message}: ${messages}`
  )
  assert.equal(await snapshotState(), before, 'a refused import changes nothing')
  return result
}

export function table(name: string) {
  return inspectTable(db.connection(), name)
}

/** The inspected table (throws when it does not exist). */
export async function inspected(name: string): Promise<InspectedTable> {
  const t = await table(name)
  if (!t) throw new Error(`table ${name} does not exist`)
  return t
}

/** The inspected columns of a table by name (throws when the table does not exist). */
export async function columnsOf(name: string): Promise<Record<string, InspectedColumn>> {
  const t = await inspected(name)
  return Object.fromEntries(t.columns.map((c) => [c.name, c]))
}

export async function columnOf(tableName: string, column: string): Promise<InspectedColumn> {
  const columns = await columnsOf(tableName)
  if (!columns[column]) throw new Error(`column ${tableName}.${column} does not exist`)
  return columns[column]
}

export async function columnNamesOf(name: string): Promise<string[]> {
  const t = await inspected(name)
  return t.columns.map((c) => c.name)
}

export async function indexesOf(name: string) {
  const t = await inspected(name)
  return t.indexes
}

export async function foreignKeysOf(name: string) {
  const t = await inspected(name)
  return t.foreignKeys
}

/** Inserts rows (a uuid `id` is generated when missing) and returns them with their ids. */
export async function insertRows<T extends Record<string, unknown>>(
  tableName: string,
  rows: T[]
): Promise<(T & { id: string })[]> {
  const withIds = rows.map((r) => ({ id: randomUUID(), ...r }) as T & { id: string })
  if (withIds.length) await db.table(tableName).multiInsert(withIds)
  return withIds
}

/** All rows of a table, ordered by `orderBy` (default: id). */
export function rowsOf(tableName: string, orderBy = 'id'): Promise<Record<string, any>[]> {
  return db.from(tableName).select('*').orderBy(orderBy)
}

/** The values of one column, rows ordered by `orderBy`. */
export async function valuesOf(tableName: string, column: string, orderBy = 'id') {
  const rows = await rowsOf(tableName, orderBy)
  return rows.map((r) => r[column])
}

/** The values of several columns per row, rows ordered by `orderBy`. */
export async function tuplesOf(tableName: string, columns: string[], orderBy = 'id') {
  const rows = await rowsOf(tableName, orderBy)
  return rows.map((r) => columns.map((c) => r[c]))
}

export async function modelVersion(): Promise<number> {
  const row = await db.from('mg_versions').where('key', 'model').first()
  return Number(row.version)
}

const sortedJson = (items: unknown[]) => items.map((i) => JSON.stringify(i)).sort()

/**
 * A fingerprint of system rows (users and OAuth clients included), schema and the data of every
 * table, to prove that a refused or dry-run change changed nothing. Index and foreign-key lists
 * are sorted (catalog order is not guaranteed).
 */
export async function snapshotState(): Promise<string> {
  const client = db.connection()
  const parts: unknown[] = []
  const systemTables = [
    'mg_versions',
    'mg_entities',
    'mg_attributes',
    'mg_enums',
    'mg_enum_values',
    'mg_fetch_plans',
    'mg_indexes',
    'mg_settings',
    'mg_schema_changelog',
    // Accounts and clients: written by the users/clients sections in the same transaction.
    'users',
    'oauth_clients',
    // Roles and their assignment: written by the resourceRoles/rowLevelRoles/users sections.
    'mg_resource_roles',
    'mg_resource_entity_policies',
    'mg_resource_attribute_policies',
    'mg_resource_specific_policies',
    'mg_row_level_roles',
    'mg_row_level_policies',
    'mg_user_resource_roles',
    'mg_user_row_level_roles',
  ]
  for (const t of systemTables) {
    parts.push(await client.from(t).select('*').orderByRaw('1'))
  }
  const schema = await inspectSchema(client)
  const tables = [...schema.keys()].sort()
  for (const t of tables) {
    const inspection = schema.get(t)!
    parts.push({
      ...inspection,
      indexes: sortedJson(inspection.indexes),
      foreignKeys: sortedJson(inspection.foreignKeys),
    })
    if (!systemTables.includes(t)) parts.push(sortedJson(await client.from(t).select('*')))
  }
  return JSON.stringify(parts, (_k, v) => (v instanceof Date ? v.toISOString() : v))
}

/** DataManager for the current model with every permission (tests of the data layer itself). */
export async function fullAccessData(limits = 1000): Promise<DataManager> {
  return new DataManager({
    db,
    model: (await engine()).model,
    subject: ANONYMOUS,
    permissions: FULL_ACCESS,
    maxFetchSize: limits,
    maxBulkSize: limits,
  })
}

/** A readable, valid UUID for fixture row `n` (`00000000-0000-4000-8000-000000000042`). */
export const numberedId = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`

/**
 * Full access plus one row-level role: read rows of `entity` only where `filter` holds
 * (compiled for the user `username`, e.g. for `:current_user_username`).
 */
export async function readRulePermissions(
  entity: string,
  filter: Record<string, unknown>,
  username = 'me'
): Promise<Permissions> {
  const role = { code: 'rule', name: 'rule', description: '' }
  return compilePermissions(
    (await engine()).model,
    {
      version: 1,
      resource: new Map(),
      rowLevel: new Map([
        ['rule', { ...role, policies: [{ entity, type: 'filter', actions: ['read'], filter }] }],
      ]),
    },
    { resourceRoles: ['system-full-access'], rowLevelRoles: ['rule'] },
    { userId: null, username, clientId: null }
  )
}
