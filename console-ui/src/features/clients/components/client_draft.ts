/*
 * The client form's state and its rules: the entry PUT/POST take, plus how a new client gets
 * its secret. The server has the last word (422 at `$.grantTypes[0]`, `$.redirectUris[1]`…);
 * these rules only keep the form consistent while the admin edits.
 */
import type { Client, ClientEntry } from '../api/clients'
import { entryOf } from '../api/clients'
import { redirectUriProblems } from './redirect_uris_editor'

/** The entry's fields the form shows errors at (others are listed at the top). */
export const FIELD_KEYS = [
  'clientId',
  'clientSecret',
  'authenticationMethods',
  'grantTypes',
  'redirectUris',
  'requireProofKey',
  'accessTokenFormat',
  'accessTokenTimeToLive',
  'refreshTokenTimeToLive',
  'resourceRoles',
  'rowLevelRoles',
]

export interface ClientDraft extends ClientEntry {
  /** New confidential clients: a generated secret (shown once) or one typed here. */
  secretMode: 'generate' | 'set'
  secret: string
}

export const newDraft = (): ClientDraft => ({
  clientId: '',
  authenticationMethods: ['client_secret_basic'],
  grantTypes: ['client_credentials'],
  redirectUris: [],
  requireProofKey: true,
  accessTokenFormat: 'reference',
  accessTokenTimeToLive: '5m',
  refreshTokenTimeToLive: '24h',
  resourceRoles: [],
  rowLevelRoles: [],
  secretMode: 'generate',
  secret: '',
})

export const draftOf = (client: Client): ClientDraft => ({
  ...entryOf(client),
  secretMode: 'generate',
  secret: '',
})

export const isPublic = (draft: Pick<ClientEntry, 'authenticationMethods'>) =>
  draft.authenticationMethods.includes('none')

/** Public clients have no secret, always use PKCE and only the browser/app grants. */
export function withType(draft: ClientDraft, publicClient: boolean): ClientDraft {
  if (publicClient)
    return {
      ...draft,
      authenticationMethods: ['none'],
      requireProofKey: true,
      grantTypes: draft.grantTypes.filter(
        (g) => g === 'authorization_code' || g === 'refresh_token'
      ),
    }
  return { ...draft, authenticationMethods: ['client_secret_basic'] }
}

/** What is sent: the entry, with the typed secret of a new confidential client. */
export function entryFrom(draft: ClientDraft, isNew: boolean): ClientEntry {
  const { secretMode, secret, ...entry } = draft
  const out: ClientEntry = {
    ...entry,
    clientId: entry.clientId.trim(),
    redirectUris: entry.redirectUris.map((u) => u.trim()),
  }
  if (isNew && !isPublic(draft) && secretMode === 'set') out.clientSecret = secret
  return out
}

/** Problems the form refuses before asking the server, keyed like fieldErrors(). */
export function localProblems(draft: ClientDraft, isNew: boolean): Record<string, string> {
  const out: Record<string, string> = {}
  if (isNew && !draft.clientId.trim()) out.clientId = 'Enter a client id'
  for (const [i, message] of Object.entries(redirectUriProblems(draft.redirectUris)))
    out[`redirectUris[${i}]`] = message
  if (isNew && !isPublic(draft) && draft.secretMode === 'set' && draft.secret.length < 16)
    out.clientSecret = 'At least 16 characters (or let the server generate one)'
  return out
}

/** Advice shown while editing (never blocking: the server decides). */
export function advice(draft: ClientDraft): string[] {
  const out: string[] = []
  const g = new Set(draft.grantTypes)
  if (g.size === 0)
    out.push('Choose at least one grant type: without one the client cannot get a token.')
  if (g.has('authorization_code') && draft.redirectUris.length === 0)
    out.push('authorization_code needs at least one redirect URI.')
  if (g.has('refresh_token') && !g.has('authorization_code') && !g.has('password'))
    out.push('refresh_token needs authorization_code (or password).')
  if (g.has('password'))
    out.push(
      'password is the legacy grant: the application sees the user’s password. Prefer authorization_code.'
    )
  if (!isPublic(draft) && draft.authenticationMethods.length === 0)
    out.push('Choose how the client sends its secret (Basic or in the body).')
  return out
}

/** Errors still meaningful after an edit: those of the fields that did not change. */
export function keepErrors(
  errors: Record<string, string>,
  before: ClientDraft,
  after: ClientDraft
) {
  const changed = (Object.keys(after) as (keyof ClientDraft)[]).filter(
    (key) => JSON.stringify(before[key]) !== JSON.stringify(after[key])
  )
  const field = (path: string) => /^[A-Za-z]+/.exec(path)?.[0] ?? ''
  const secretKeys = ['secret', 'secretMode']
  return Object.fromEntries(
    Object.entries(errors).filter(([path]) => {
      const key = field(path)
      if (key === 'clientSecret') return !changed.some((c) => secretKeys.includes(c))
      return !changed.includes(key as keyof ClientDraft)
    })
  )
}

/** Local problems to show as errors: redirect URIs show theirs themselves (live, per row). */
export const shownLocal = (local: Record<string, string>) =>
  Object.fromEntries(Object.entries(local).filter(([key]) => !key.startsWith('redirectUris')))
