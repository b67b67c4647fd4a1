import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { completeLogin, getTokens, LoginError, refresh, setTokensForTest, startLogin } from './session'
import { createApiClient } from '../api'

const PENDING_KEY = 'modelgate.console.pending-login'

function tokenResponse(body: Record<string, unknown>, status = 200) {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })
}

describe('console sign-in session', () => {
  let assign: ReturnType<typeof vi.fn>
  beforeEach(() => {
    sessionStorage.clear()
    setTokensForTest(null)
    assign = vi.fn()
    vi.spyOn(window, 'location', 'get').mockReturnValue({
      ...window.location,
      origin: 'http://console.test',
      assign,
    } as unknown as Location)
  })
  afterEach(() => {
    vi.restoreAllMocks()
    vi.useRealTimers()
  })

  it('starts the code flow with PKCE S256 and remembers only the verifier, state and page', async () => {
    await startLogin('/model/entities/shop_Item?attribute=title')
    const url = new URL(assign.mock.calls[0]![0] as string, 'http://console.test')
    expect(url.pathname).toBe('/oauth2/authorize')
    expect(url.searchParams.get('client_id')).toBe('modelgate-console')
    expect(url.searchParams.get('code_challenge_method')).toBe('S256')
    expect(url.searchParams.get('redirect_uri')).toBe('http://console.test/console/callback')
    const pending = JSON.parse(sessionStorage.getItem(PENDING_KEY)!)
    expect(pending.returnTo).toBe('/model/entities/shop_Item?attribute=title')
    expect(url.searchParams.get('state')).toBe(pending.state)
    expect(url.searchParams.get('code_challenge')).not.toBe(pending.verifier)
  })

  it('refuses a callback whose state is not the one it started', async () => {
    await startLogin('/')
    await expect(completeLogin('?code=abc&state=forged')).rejects.toBeInstanceOf(LoginError)
    expect(getTokens()).toBeNull()
  })

  it('redeems the code, keeps the tokens in memory only and refreshes before expiry', async () => {
    vi.useFakeTimers()
    await startLogin('/users')
    const { state, verifier } = JSON.parse(sessionStorage.getItem(PENDING_KEY)!)
    const fetchMock = vi
      .spyOn(globalThis, 'fetch')
      .mockResolvedValueOnce(tokenResponse({ access_token: 'A1', refresh_token: 'R1', expires_in: 300 }))
      .mockResolvedValueOnce(tokenResponse({ access_token: 'A2', refresh_token: 'R2', expires_in: 300 }))
    expect(await completeLogin(`?code=C1&state=${state}`)).toBe('/users')
    const form = new URLSearchParams(String(fetchMock.mock.calls[0]![1]!.body))
    expect(form.get('grant_type')).toBe('authorization_code')
    expect(form.get('code_verifier')).toBe(verifier)
    expect(getTokens()?.accessToken).toBe('A1')
    expect(JSON.stringify({ ...localStorage, ...sessionStorage })).not.toContain('A1')

    // A minute before the access token expires, the refresh token is used.
    await vi.advanceTimersByTimeAsync(230_000)
    expect(fetchMock).toHaveBeenCalledTimes(1)
    await vi.advanceTimersByTimeAsync(10_001)
    expect(fetchMock).toHaveBeenCalledTimes(2)
    const refreshForm = new URLSearchParams(String(fetchMock.mock.calls[1]![1]!.body))
    expect(refreshForm.get('grant_type')).toBe('refresh_token')
    expect(refreshForm.get('refresh_token')).toBe('R1')
    expect(getTokens()?.accessToken).toBe('A2')
  })

  it('a refused refresh signs out; an API 401 is retried once with a refreshed token', async () => {
    setTokensForTest({ accessToken: 'old', refreshToken: 'R', expiresAt: Date.now() + 300_000 })
    vi.spyOn(globalThis, 'fetch').mockResolvedValueOnce(tokenResponse({ error: 'invalid_grant' }, 400))
    expect(await refresh()).toBe(false)
    expect(getTokens()).toBeNull()

    let token = 'stale'
    const calls: string[] = []
    const client = createApiClient({
      getAccessToken: () => token,
      onUnauthorized: async () => {
        token = 'fresh'
        return true
      },
      fetch: async (_url, init) => {
        const auth = new Headers(init?.headers).get('Authorization') ?? ''
        calls.push(auth)
        return auth === 'Bearer fresh' ? tokenResponse({ ok: true }) : new Response('', { status: 401 })
      },
    })
    expect(await client.get('/rest/userInfo')).toEqual({ ok: true })
    expect(calls).toEqual(['Bearer stale', 'Bearer fresh'])
  })
})
