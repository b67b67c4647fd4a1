/**
 * `app:export`: the stored application as a definition document. Importing the result into the
 * same application plans no operation (round trip). Clients managed by configuration
 * (svc.authserver.client.<name>.*) belong to the configuration and are not exported.
 */
import type { Database } from '@adonisjs/lucid/database'
import YAML from 'yaml'
import { loadModelDefinition } from '../metadata/store.js'
import { exportClientEntries } from '../../oauth/client_definitions.js'
import { exportMessages } from '../../i18n/definition.js'
import { exportRoles } from '../../security/roles_definition.js'
import { exportUsers } from '../../oauth/user_definitions.js'

export async function exportDocument(db: Database): Promise<Record<string, unknown>> {
  const client = db.connection()
  const model = await loadModelDefinition(client)
  const rows = await client.from('mg_settings').select('key', 'value').orderBy('key')
  const settings = Object.fromEntries(rows.map((r) => [r.key, JSON.parse(r.value)]))
  // Database-managed clients with the digest of their secret, never the secret itself.
  const clients = await exportClientEntries(client)
  const messages = await exportMessages(client)
  // Stored roles only (built-in ones are not stored); users with password hashes, never a password.
  const { resourceRoles, rowLevelRoles } = await exportRoles(client)
  const users = await exportUsers(client)
  return {
    formatVersion: 1,
    enums: model.enums,
    entities: model.entities,
    fetchPlans: model.fetchPlans,
    ...(rows.length ? { settings } : {}),
    ...(resourceRoles.length ? { resourceRoles } : {}),
    ...(rowLevelRoles.length ? { rowLevelRoles } : {}),
    ...(users.length ? { users } : {}),
    ...(clients.length ? { clients } : {}),
    ...(messages ? { messages } : {}),
  }
}

export function renderDocument(document: Record<string, unknown>, format: 'json' | 'yaml'): string {
  return format === 'yaml' ? YAML.stringify(document) : JSON.stringify(document, null, 2) + '\n'
}
