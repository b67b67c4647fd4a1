import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import FormTokenGuardMiddleware from '#middleware/form_token_guard_middleware'
import type { UrlKind } from '#oauth/resource_server'

/** Runs the guard on a context with a parsed body; returns the status it set (or 'next'). */
async function guard(kind: UrlKind, contentType: string, body: Record<string, unknown>) {
  const ctx = await testUtils.createHttpContext()
  ctx.request.request.headers['content-type'] = contentType
  ctx.request.updateBody(body)
  ctx.urlKind = kind
  let passed = false
  await new FormTokenGuardMiddleware().handle(ctx, async () => {
    passed = true
  })
  return passed ? 'next' : ctx.response.getStatus()
}

test.group('access_token in a form body', () => {
  const form = 'application/x-www-form-urlencoded'

  test('refused on authenticated and anonymous URLs', async ({ assert }) => {
    assert.equal(await guard('authenticated', form, { access_token: 'x' }), 401)
    assert.equal(await guard('anonymous', `${form}; charset=utf-8`, { access_token: 'x' }), 401)
  })

  test('ignored elsewhere, in JSON bodies and without the field', async ({ assert }) => {
    assert.equal(await guard('open', form, { access_token: 'x' }), 'next')
    assert.equal(await guard('authenticated', 'application/json', { access_token: 'x' }), 'next')
    assert.equal(await guard('authenticated', form, { token: 'x' }), 'next')
  })
})
