/**
 * Shared by the admin client specs (admin_clients, admin_clients_secrets): a database-managed
 * client, the console's configuration client, the "nothing changed" oracle, and readers of the
 * token endpoint, /rest/userInfo and the audit trail.
 */
import db from '@adonisjs/lucid/services/db'
import { engine } from '#tests/helpers/engine'
import { admin, adminState } from '#tests/helpers/admin'
import { baseUrl, clientCredentialsTokens, discover, oauthState } from '#tests/helpers/oauth'
import { syncConfigClients } from '#oauth/config_clients'

export const SYNC = {
  clientId: 'orders-sync',
  resourceRoles: ['rest-minimal'],
  accessTokenTimeToLive: '1h',
}
export const CONSOLE = 'modelgate-console'
/** Client ids may hold `. _ ~ @ -`: they must reach the controller whole, encoded or not. */
export const KEEPER = 'keeper.v2~ops@example'

/** Every refused request must leave this identical: definition, schema, audit, tokens. */
export const state = async () => JSON.stringify([await adminState(), await oauthState()])

export async function token(clientId: string, secret: string) {
  return (await clientCredentialsTokens(await discover(), clientId, secret)).access_token
}

/** The raw token endpoint answer (to see a refused secret). */
export async function tokenStatus(clientId: string, secret: string) {
  const response = await fetch(`${baseUrl()}/oauth2/token`, {
    method: 'POST',
    headers: {
      'Authorization': `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`,
      'Content-Type': 'application/x-www-form-urlencoded',
    },
    body: 'grant_type=client_credentials',
  })
  return response.status
}

export async function userInfo(accessToken: string) {
  const response = await fetch(`${baseUrl()}/rest/userInfo`, {
    headers: { Authorization: `Bearer ${accessToken}` },
  })
  return { status: response.status, body: (await response.json().catch(() => null)) as any }
}

export async function create(entry: Record<string, unknown> = SYNC) {
  const reply = await admin('admin', 'POST', 'clients', entry)
  if (reply.status !== 201) throw new Error(`create: ${reply.status} ${reply.text}`)
  return reply
}

export const lastAudit = () => db.from('mg_audit').orderBy('id', 'desc').first()
export const elementsOf = async (auditId: number) =>
  (await db.from('mg_audit_elements').where('audit_id', auditId)).map(
    (e) => `${e.section}:${e.element}`
  )

/** The console's own public client, as the server seeds it at start (managed by config). */
export async function seedConsoleClient() {
  const result = await syncConfigClients((await engine()).properties, Number(process.env.PORT))
  if (result.problems.length) throw new Error(JSON.stringify(result.problems))
}
