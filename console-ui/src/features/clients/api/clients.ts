/*
 * OAuth clients over the admin API (README "Admin API", OAuth clients; app/oauth/ACCOUNTS.md):
 * list, one client, create (a generated secret answered once), replace (PUT: the full entry,
 * left-out fields take their defaults, the secret is kept), delete, rotate the secret, revoke
 * every token.
 */
import { useQuery } from '@tanstack/react-query'
import { adminChange, adminGet, adminGetVersioned, type ChangeResult } from '../../../lib/admin'
import { clientsKeys } from './keys'

export const GRANT_TYPES = [
  'client_credentials',
  'authorization_code',
  'refresh_token',
  'password',
] as const
export const AUTH_METHODS = ['client_secret_basic', 'client_secret_post', 'none'] as const

/** A `clients` entry of the definition (what PUT takes). */
export interface ClientEntry {
  clientId: string
  authenticationMethods: string[]
  grantTypes: string[]
  redirectUris: string[]
  requireProofKey: boolean
  accessTokenFormat: 'reference' | 'self-contained'
  accessTokenTimeToLive: string
  refreshTokenTimeToLive: string
  resourceRoles: string[]
  rowLevelRoles: string[]
  clientSecret?: string
}

/** A client as the admin API shows it: never a secret. */
export interface Client extends Omit<ClientEntry, 'clientSecret'> {
  managedBy: 'database' | 'config'
  configName?: string
  readOnly: boolean
  public: boolean
  active: boolean
}

export interface ClientChange extends ChangeResult {
  client?: Client
  /** A generated secret: in this one answer only. */
  secret?: string
}

const path = (clientId: string) => `clients/${encodeURIComponent(clientId)}`

export function useClients() {
  return useQuery({
    queryKey: clientsKeys.list(),
    queryFn: ({ signal }) => adminGet<Client[]>('clients', signal),
  })
}

export function useClient(clientId: string) {
  return useQuery({
    queryKey: clientsKeys.client(clientId),
    queryFn: ({ signal }) => adminGetVersioned<Client>(path(clientId), signal),
  })
}

export const createClient = (entry: ClientEntry) =>
  adminChange<ClientChange>('POST', 'clients', entry)

export const replaceClient = (entry: ClientEntry, ifMatch?: number) =>
  adminChange<ClientChange>('PUT', path(entry.clientId), entry, { ifMatch })

export const deleteClient = (clientId: string) =>
  adminChange<ClientChange>('DELETE', path(clientId))

export const rotateSecret = (clientId: string) =>
  adminChange<ClientChange>('POST', `${path(clientId)}/secret`)

/** `{status, revoked}`; a dry run counts the tokens that would be revoked. */
export const revokeTokens = (clientId: string, dryRun = false) =>
  adminChange<{ status: string; revoked: number }>(
    'POST',
    `${path(clientId)}/revoke-tokens`,
    undefined,
    { dryRun }
  )

/** The entry PUT takes, from what GET shows. */
export function entryOf(client: Client): ClientEntry {
  return {
    clientId: client.clientId,
    authenticationMethods: client.authenticationMethods,
    grantTypes: client.grantTypes,
    redirectUris: client.redirectUris,
    requireProofKey: client.requireProofKey,
    accessTokenFormat: client.accessTokenFormat,
    accessTokenTimeToLive: client.accessTokenTimeToLive,
    refreshTokenTimeToLive: client.refreshTokenTimeToLive,
    resourceRoles: client.resourceRoles,
    rowLevelRoles: client.rowLevelRoles,
  }
}
