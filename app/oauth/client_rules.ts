/**
 * The rules of an OAuth client registration (spec 5.3, `clients` of the definition document),
 * shared by every way of registering one: the definition import, `node ace client:create`, the
 * `svc.authserver.client.<name>.*` properties and the console. Pure: input in, normalized
 * settings or problems (each with a path in the caller's terms) out.
 */
import type { AuthenticationMethod, GrantType } from '#models/oauth_client'
import { parseDuration } from './secrets.js'

export interface Problem {
  path: string
  message: string
}

export const AUTHENTICATION_METHODS: AuthenticationMethod[] = [
  'client_secret_basic',
  'client_secret_post',
  'none',
]
export const GRANT_TYPES: GrantType[] = [
  'client_credentials',
  'authorization_code',
  'refresh_token',
  'password',
]
export const ACCESS_TOKEN_FORMATS = ['reference', 'self-contained'] as const
export type AccessTokenFormat = (typeof ACCESS_TOKEN_FORMATS)[number]

export const CLIENT_DEFAULTS = {
  authenticationMethods: ['client_secret_basic'] as AuthenticationMethod[],
  grantTypes: ['client_credentials'] as GrantType[],
  accessTokenFormat: 'reference' as AccessTokenFormat,
  accessTokenTimeToLive: '5m',
  refreshTokenTimeToLive: '24h',
}

/** Longest accepted token lifetime (a year and a day). */
const MAX_TTL_SECONDS = 366 * 86400
/** Shortest secret accepted from a person (documents, the command line). */
export const MIN_SECRET_LENGTH = 16
const CLIENT_ID = /^[A-Za-z0-9][\w.~@-]{0,99}$/
const SHA256_HEX = /^[0-9a-f]{64}$/
const FORBIDDEN_SCHEMES = new Set(['javascript:', 'data:', 'vbscript:', 'file:', 'blob:'])

/** A registration as a person writes it; omitted fields take the defaults. */
export interface ClientRegistration {
  clientId: string
  authenticationMethods?: string[]
  grantTypes?: string[]
  redirectUris?: string[]
  requireProofKey?: boolean
  accessTokenFormat?: string
  accessTokenTimeToLive?: string | number
  refreshTokenTimeToLive?: string | number
  resourceRoles?: string[]
  rowLevelRoles?: string[]
}

/** A checked registration, as stored (TTLs in seconds), without the secret. */
export interface ClientSettings {
  clientId: string
  authenticationMethods: AuthenticationMethod[]
  grantTypes: GrantType[]
  redirectUris: string[]
  requireProofKey: boolean
  accessTokenFormat: AccessTokenFormat
  accessTokenTtl: number
  refreshTokenTtl: number
  resourceRoles: string[]
  rowLevelRoles: string[]
}

/** Where a field lives in the caller's input: `$.clients[2].grantTypes[1]`, `--grant-types`, ... */
type Field = keyof ClientRegistration | 'clientSecret' | 'clientSecretHash'
export type PathOf = (field: Field, index?: number) => string

export const documentPaths =
  (base: string): PathOf =>
  (field, index) =>
    `${base}.${field}${index === undefined ? '' : `[${index}]`}`

type Report = (field: Field, message: string, index?: number) => void

function list<T extends string>(
  values: string[] | undefined,
  fallback: T[],
  allowed: readonly T[] | null,
  field: Field,
  report: Report
): T[] {
  const items = values ?? fallback
  items.forEach((value, i) => {
    if (typeof value !== 'string' || !value.trim()) report(field, 'must be a non-empty string', i)
    else if (allowed && !allowed.includes(value as T))
      report(field, `unknown value '${value}' (allowed: ${allowed.join(', ')})`, i)
    else if (items.indexOf(value) !== i) report(field, `'${value}' is listed twice`, i)
  })
  return items as T[]
}

function ttl(value: string | number, field: Field, report: Report) {
  try {
    const seconds = parseDuration(value)
    if (seconds <= MAX_TTL_SECONDS) return seconds
    report(field, `'${value}' is longer than 366d`)
  } catch (error) {
    report(field, (error as Error).message)
  }
  return 0
}

/** Absolute URI, no fragment, no script-capable scheme (RFC 6749 3.1.2, OAuth 2.1 2.3). */
export function redirectUriProblem(uri: string): string | null {
  let url: URL
  try {
    url = new URL(uri)
  } catch {
    return `'${uri}' is not an absolute URI`
  }
  if (uri.includes('#')) return `'${uri}' must not contain a fragment`
  if (FORBIDDEN_SCHEMES.has(url.protocol)) return `scheme '${url.protocol}' is not allowed`
  if (/\s/.test(uri)) return `'${uri}' must not contain white space`
  return null
}

const PUBLIC = "a public client (authentication method 'none')"

export function checkRegistration(
  input: ClientRegistration,
  pathOf: PathOf
): { settings: ClientSettings; problems: Problem[] } {
  const out: Problem[] = []
  const report: Report = (field, message, index) =>
    out.push({ path: pathOf(field, index), message })
  const clientId = typeof input.clientId === 'string' ? input.clientId : ''
  if (!CLIENT_ID.test(clientId))
    report(
      'clientId',
      'must be 1 to 100 letters, digits or . _ ~ @ - (starting with a letter or digit)'
    )
  const { authenticationMethods: defaultMethods, grantTypes: defaultGrants } = CLIENT_DEFAULTS
  const methods = list(
    input.authenticationMethods,
    defaultMethods,
    AUTHENTICATION_METHODS,
    'authenticationMethods',
    report
  )
  const grants = list(input.grantTypes, defaultGrants, GRANT_TYPES, 'grantTypes', report)
  const redirectUris = list(input.redirectUris, [], null, 'redirectUris', report)
  const isPublic = methods.includes('none')
  if (methods.length === 0) report('authenticationMethods', 'must name at least one method')
  if (isPublic && methods.length > 1)
    report(
      'authenticationMethods',
      `'none' (a public client) cannot be combined with other methods`
    )
  if (grants.length === 0) report('grantTypes', 'must name at least one grant type')
  for (const grant of ['client_credentials', 'password'] as GrantType[]) {
    if (isPublic && grants.includes(grant))
      report('grantTypes', `${PUBLIC} cannot use ${grant}`, grants.indexOf(grant))
  }
  const refresh = grants.indexOf('refresh_token')
  if (refresh >= 0 && !grants.includes('authorization_code') && !grants.includes('password'))
    report('grantTypes', 'refresh_token needs authorization_code (or password)', refresh)
  if (grants.includes('authorization_code') && redirectUris.length === 0)
    report('redirectUris', 'authorization_code needs at least one redirect URI')
  redirectUris.forEach((uri, i) => {
    const problem = typeof uri === 'string' ? redirectUriProblem(uri) : null
    if (problem) report('redirectUris', problem, i)
  })
  if (input.requireProofKey === false && isPublic)
    report('requireProofKey', `${PUBLIC} always requires a proof key (PKCE)`)
  const format = input.accessTokenFormat ?? CLIENT_DEFAULTS.accessTokenFormat
  if (!ACCESS_TOKEN_FORMATS.includes(format as AccessTokenFormat))
    report('accessTokenFormat', `unknown format '${format}' (allowed: reference, self-contained)`)
  const accessTtl = input.accessTokenTimeToLive ?? CLIENT_DEFAULTS.accessTokenTimeToLive
  const refreshTtl = input.refreshTokenTimeToLive ?? CLIENT_DEFAULTS.refreshTokenTimeToLive
  const settings: ClientSettings = {
    clientId,
    authenticationMethods: methods,
    grantTypes: grants,
    redirectUris,
    requireProofKey: isPublic || input.requireProofKey !== false,
    accessTokenFormat: format as AccessTokenFormat,
    accessTokenTtl: ttl(accessTtl, 'accessTokenTimeToLive', report),
    refreshTokenTtl: ttl(refreshTtl, 'refreshTokenTimeToLive', report),
    resourceRoles: list(input.resourceRoles, [], null, 'resourceRoles', report),
    rowLevelRoles: list(input.rowLevelRoles, [], null, 'rowLevelRoles', report),
  }
  return { settings, problems: out }
}

export interface SecretInput {
  clientSecret?: string
  clientSecretHash?: string
}

/**
 * Problems of the secret fields. A public client has none; a confidential one may give the
 * secret, its SHA-256 digest (lower-case hex, as exported), or neither (one is generated).
 */
export function checkSecret(
  input: SecretInput,
  isPublic: boolean,
  pathOf: PathOf,
  minLength = MIN_SECRET_LENGTH
): Problem[] {
  const out: Problem[] = []
  const report: Report = (field, message) => out.push({ path: pathOf(field), message })
  const { clientSecret: secret, clientSecretHash: hash } = input
  if (secret !== undefined && hash !== undefined)
    report('clientSecretHash', 'give clientSecret or clientSecretHash, not both')
  if (isPublic) {
    if (secret !== undefined) report('clientSecret', `${PUBLIC} has no secret`)
    if (hash !== undefined) report('clientSecretHash', `${PUBLIC} has no secret`)
    return out
  }
  if (secret !== undefined && (typeof secret !== 'string' || secret.length < minLength))
    report(
      'clientSecret',
      `must be at least ${minLength} characters (omit it to have one generated)`
    )
  if (hash !== undefined && (typeof hash !== 'string' || !SHA256_HEX.test(hash)))
    report('clientSecretHash', 'must be a SHA-256 digest: 64 lower-case hexadecimal characters')
  return out
}
