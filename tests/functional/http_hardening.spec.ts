/**
 * Cross-cutting HTTP behaviour: 405 with Allow for a wrong method, CORS only for configured
 * origins and never with credentials (RT15-RT17), security headers (RT18).
 */
import { test } from '@japa/runner'
import { resetDatabase } from '#tests/helpers/database'
import { importDoc } from '#tests/helpers/engine'
import { baseUrl } from '#tests/helpers/oauth'

const settings = (values: Record<string, unknown>) => importDoc({ settings: values })

test.group('http hardening', (group) => {
  group.each.setup(async () => void (await resetDatabase()))

  test('a wrong method on an existing path is 405 with Allow', async ({ client, assert }) => {
    const response = await client.get('/oauth2/token')
    response.assertStatus(405)
    assert.equal(response.header('allow'), 'POST')
    response.assertBody({
      error: 'Method not allowed',
      details: 'GET is not supported here; use POST',
    })
    const unknown = await client.delete('/no/such/thing')
    unknown.assertStatus(404)
  })

  test('CORS is off until origins are configured, then exact and without credentials', async ({
    assert,
  }) => {
    const ask = (origin: string) =>
      fetch(`${baseUrl()}/health`, { headers: { Origin: origin } }).then((r) => r.headers)
    assert.isNull((await ask('https://evil.example')).get('access-control-allow-origin'))

    await settings({ 'svc.cors.allowed-origins': 'https://app.example' })
    const allowed = await ask('https://app.example')
    assert.equal(allowed.get('access-control-allow-origin'), 'https://app.example')
    assert.isNull(allowed.get('access-control-allow-credentials'))
    assert.isNull((await ask('https://evil.example')).get('access-control-allow-origin'))
    assert.isNull((await ask('null')).get('access-control-allow-origin'))

    const preflight = await fetch(`${baseUrl()}/rest/userInfo`, {
      method: 'OPTIONS',
      headers: {
        'Origin': 'https://app.example',
        'Access-Control-Request-Method': 'GET',
        'Access-Control-Request-Headers': 'authorization',
      },
    })
    assert.oneOf(preflight.status, [200, 204])
    assert.include(preflight.headers.get('access-control-allow-headers') ?? '', 'authorization')
    const badHeader = await fetch(`${baseUrl()}/rest/userInfo`, {
      method: 'OPTIONS',
      headers: {
        'Origin': 'https://app.example',
        'Access-Control-Request-Method': 'GET',
        'Access-Control-Request-Headers': 'x-evil',
      },
    })
    assert.notInclude(badHeader.headers.get('access-control-allow-headers') ?? '', 'x-evil')
  })

  test('security headers on API and console responses', async ({ client, assert }) => {
    const api = await client.get('/health')
    assert.equal(api.header('x-content-type-options'), 'nosniff')
    const unauthorized = await client.get('/rest/userInfo')
    assert.equal(unauthorized.header('x-content-type-options'), 'nosniff')
    const page = await client.get('/console/')
    assert.equal(page.header('x-frame-options'), 'DENY')
    const csp = page.header('content-security-policy')
    assert.include(csp, "frame-ancestors 'none'")
    // Scripts only from the console's own files; inline styles are allowed (the component
    // libraries insert <style> elements), inline scripts and eval never.
    const directives = new Map(
      (csp ?? '').split(';').map((d: string) => {
        const [name, ...values] = d.trim().split(/\s+/)
        return [name, values.join(' ')] as const
      })
    )
    assert.equal(directives.get('script-src'), "'self'")
    assert.equal(directives.get('default-src'), "'self'")
    assert.notInclude(csp, 'unsafe-eval')
  })
})
