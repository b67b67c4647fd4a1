/*
 * The console's sign-in: authorization code + PKCE against the server's own /oauth2/authorize
 * with the public client `modelgate-console`. Tokens live in memory only (never localStorage);
 * only the one-time PKCE verifier, the state and the page to come back to sit in
 * sessionStorage for the redirect round trip. A reload starts a new round trip, which the
 * server's login session answers without showing the form again.
 */
import { randomToken, s256 } from './pkce'

export const CLIENT_ID = 'modelgate-console'
const PENDING_KEY = 'modelgate.console.pending-login'
/** Refresh this long before the access token expires. */
const REFRESH_MARGIN_MS = 60_000

export interface Tokens {
  accessToken: string
  refreshToken: string | null
  expiresAt: number
}

interface PendingLogin {
  state: string
  verifier: string
  returnTo: string
}

let tokens: Tokens | null = null
let refreshTimer: ReturnType<typeof setTimeout> | undefined
let refreshing: Promise<boolean> | null = null
const listeners = new Set<() => void>()

export const redirectUri = () => `${window.location.origin}/console/callback`

export function subscribe(listener: () => void): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

export const getTokens = () => tokens
export const getAccessToken = () => tokens?.accessToken ?? null

function setTokens(next: Tokens | null) {
  tokens = next
  clearTimeout(refreshTimer)
  if (next?.refreshToken) {
    const delay = Math.max(5_000, next.expiresAt - Date.now() - REFRESH_MARGIN_MS)
    refreshTimer = setTimeout(() => void refresh(), delay)
  }
  for (const listener of listeners) listener()
}

/** Leaves for the authorization endpoint; `returnTo` is the console path to come back to. */
export async function startLogin(returnTo: string): Promise<void> {
  const pending: PendingLogin = { state: randomToken(16), verifier: randomToken(48), returnTo }
  sessionStorage.setItem(PENDING_KEY, JSON.stringify(pending))
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: CLIENT_ID,
    redirect_uri: redirectUri(),
    state: pending.state,
    code_challenge: await s256(pending.verifier),
    code_challenge_method: 'S256',
  })
  window.location.assign(`/oauth2/authorize?${query}`)
}

export class LoginError extends Error {}

/** Handles /console/callback: checks the state, redeems the code, returns the page to show. */
export async function completeLogin(search: string): Promise<string> {
  const params = new URLSearchParams(search)
  const raw = sessionStorage.getItem(PENDING_KEY)
  sessionStorage.removeItem(PENDING_KEY)
  const pending = raw ? (JSON.parse(raw) as PendingLogin) : null
  const error = params.get('error')
  if (error) {
    const description = params.get('error_description')
    throw new LoginError(error === 'access_denied' ? 'Sign-in was cancelled.' : (description ?? error))
  }
  if (!pending || params.get('state') !== pending.state)
    throw new LoginError('This sign-in link is not the one the console started. Please sign in again.')
  const code = params.get('code')
  if (!code) throw new LoginError('The server sent no authorization code.')
  await tokenRequest({
    grant_type: 'authorization_code',
    code,
    redirect_uri: redirectUri(),
    code_verifier: pending.verifier,
  })
  return pending.returnTo
}

async function tokenRequest(form: Record<string, string>) {
  const response = await fetch('/oauth2/token', {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
    body: new URLSearchParams({ ...form, client_id: CLIENT_ID }),
  })
  const body = (await response.json().catch(() => ({}))) as Record<string, unknown>
  if (!response.ok || typeof body.access_token !== 'string') {
    const reason = (body.error_description ?? body.error ?? `HTTP ${response.status}`) as string
    throw new LoginError(`The server refused the sign-in: ${reason}`)
  }
  setTokens({
    accessToken: body.access_token,
    refreshToken: typeof body.refresh_token === 'string' ? body.refresh_token : null,
    expiresAt: Date.now() + Number(body.expires_in ?? 300) * 1000,
  })
}

/** Exchanges the refresh token (once at a time); false when there is none or it was refused. */
export function refresh(): Promise<boolean> {
  const current = tokens?.refreshToken
  if (!current) return Promise.resolve(false)
  refreshing ??= tokenRequest({ grant_type: 'refresh_token', refresh_token: current })
    .then(() => true)
    .catch(() => {
      setTokens(null)
      return false
    })
    .finally(() => {
      refreshing = null
    })
  return refreshing
}

/** Revokes the grant and ends the server's login session, then shows the sign-in form again. */
export async function signOut(): Promise<void> {
  const current = tokens
  if (current) {
    const token = current.refreshToken ?? current.accessToken
    await fetch('/oauth2/revoke', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token, client_id: CLIENT_ID }),
    }).catch(() => undefined)
    await fetch('/logout', {
      method: 'POST',
      headers: { Authorization: `Bearer ${current.accessToken}` },
      redirect: 'manual',
    }).catch(() => undefined)
  }
  // Forget the tokens without re-rendering: the page is left at once (a re-render would start a
  // new sign-in before the navigation).
  clearTimeout(refreshTimer)
  tokens = null
  window.location.assign('/console/signed-out')
}

/** For tests. */
export function setTokensForTest(next: Tokens | null) {
  setTokens(next)
}
