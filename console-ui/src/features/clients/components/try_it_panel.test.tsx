import { afterEach, describe, expect, it, vi } from 'vitest'
import { cleanup, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { curlCommand, requestToken, TryItPanel } from './try_it_panel'

afterEach(cleanup)

const confidential = {
  clientId: 'orders-sync',
  authenticationMethods: ['client_secret_basic'],
  grantTypes: ['client_credentials'],
}

describe('try it: a client-credentials token', () => {
  it('sends the secret with HTTP Basic (form-urlencoded parts) and never the admin token', async () => {
    const fetcher = vi.fn(
      async () =>
        new Response(
          JSON.stringify({ access_token: 'abc', token_type: 'Bearer', expires_in: 300 }),
          { status: 200 }
        )
    )
    const answer = await requestToken(
      { ...confidential, clientId: 'a@b' },
      's3cret:+x',
      fetcher as unknown as typeof fetch
    )
    const [url, init] = fetcher.mock.calls[0] as unknown as [string, RequestInit]
    expect(url).toBe('/oauth2/token')
    const headers = init.headers as Record<string, string>
    expect(atob(headers.Authorization!.replace('Basic ', ''))).toBe('a%40b:s3cret%3A%2Bx')
    expect(String(init.body)).toBe('grant_type=client_credentials')
    expect(answer.status).toBe(200)
  })

  it('uses the form body for client_secret_post clients, and quotes the curl command', () => {
    const post = { ...confidential, authenticationMethods: ['client_secret_post'] }
    expect(curlCommand(post, "it's", 'https://h')).toBe(
      "curl -s -d grant_type=client_credentials --data-urlencode 'client_id=orders-sync' --data-urlencode 'client_secret=it'\\''s' https://h/oauth2/token"
    )
    expect(curlCommand(confidential, 'x', 'https://h')).toBe(
      "curl -s -u 'orders-sync:x' -d grant_type=client_credentials https://h/oauth2/token"
    )
  })

  it('is pre-filled with the secret just shown and shows the answer', async () => {
    const user = userEvent.setup()
    const fetcher = vi.fn(
      async () => new Response(JSON.stringify({ error: 'invalid_client' }), { status: 401 })
    )
    render(
      <TryItPanel
        client={confidential}
        secret="the-secret"
        fetcher={fetcher as unknown as typeof fetch}
      />
    )
    expect((screen.getByTestId('try-it-secret') as HTMLInputElement).value).toBe('the-secret')
    expect(screen.getByTestId('try-it-curl').textContent).toContain("'orders-sync:the-secret'")
    await user.click(screen.getByTestId('try-it-run'))
    expect((await screen.findByTestId('try-it-status')).textContent).toBe('HTTP 401')
    expect(screen.getByTestId('try-it-body').textContent).toContain('invalid_client')
  })

  it('explains why a public client cannot try it', () => {
    render(
      <TryItPanel
        client={{
          clientId: 'spa',
          authenticationMethods: ['none'],
          grantTypes: ['authorization_code'],
        }}
      />
    )
    expect(screen.getByTestId('try-it-unavailable').textContent).toMatch(/public client/)
    expect(screen.queryByTestId('try-it-run')).toBeNull()
  })
})
