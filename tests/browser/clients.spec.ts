/**
 * Console, OAuth clients (console-ui/src/features/clients): the list with the read-only console
 * client, create with the secret shown once and a client-credentials token obtained with it
 * (by the test and by the "try it" panel), a redirect URI refused at its row with nothing
 * changed, secret rotation (the old secret stops), revoking every token (the count is shown,
 * the token stops) and delete. Effects are read back through /oauth2/token, /rest and the
 * admin API.
 */
import { test } from '@japa/runner'
import type { Browser } from 'playwright-core'
import {
  baseUrl,
  checkPage,
  launchBrowser,
  newPage,
  resetForConsole,
  signIn,
  pickOption,
  toTop,
} from '#tests/helpers/browser'
import { accessToken, bearer, makeClient } from '#tests/helpers/resource_server'

let adminToken = ''
async function adminApi(path: string) {
  const response = await fetch(`${baseUrl()}/admin/api/${path}`, { headers: bearer(adminToken) })
  return { status: response.status, body: (await response.json()) as any }
}

/** A client-credentials token request, as the application would send it. */
async function tokenWith(clientId: string, secret: string) {
  const response = await fetch(`${baseUrl()}/oauth2/token`, {
    method: 'POST',
    headers: {
      'Authorization': `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`,
      'Content-Type': 'application/x-www-form-urlencoded',
    },
    body: 'grant_type=client_credentials',
  })
  return { status: response.status, body: (await response.json()) as any }
}
const permissionsStatus = async (token: string) =>
  (await fetch(`${baseUrl()}/rest/permissions`, { headers: bearer(token) })).status

test.group('console: OAuth clients', (group) => {
  let browser: Browser
  group.setup(async () => {
    await resetForConsole()
    adminToken = (await accessToken(await makeClient({ resourceRoles: ['system-admin'] }))).token
    browser = await launchBrowser()
    return () => browser.close()
  })

  test('the list marks configuration clients read-only; their page cannot change them', async ({
    assert,
  }) => {
    const { context, page } = await newPage(browser)
    await signIn(page, '/clients')
    const row = page.locator('[data-testid="client-row"][data-client-id="modelgate-console"]')
    await row.waitFor()
    assert.include(await row.getByTestId('client-readonly').textContent(), 'read-only')
    assert.include(await row.getByTestId('client-type').textContent(), 'Public')
    await checkPage(page, 'clients-list', assert)
    await row.getByTestId('client-link').click()
    await page.getByTestId('client-readonly-notice').waitFor()
    assert.equal(await page.getByTestId('client-save').count(), 0)
    assert.equal(await page.getByTestId('client-delete').count(), 0)
    assert.isTrue(await page.getByTestId('redirect-uri-input').first().isDisabled())
    assert.include(await page.getByTestId('try-it-unavailable').textContent(), 'public client')
    await checkPage(page, 'client-readonly', assert)
    await context.close()
  })

  test('create a client: the secret is shown once and gets a client-credentials token', async ({
    assert,
  }) => {
    const { context, page } = await newPage(browser)
    await signIn(page, '/clients/new')
    await page.getByTestId('client-id-input').fill('orders-sync')
    await pickOption(page, 'resource-roles', 'rest-minimal')
    await page.getByTestId('client-access-ttl').fill('15m')
    await toTop(page)
    await checkPage(page, 'client-new', assert)
    await page.getByTestId('client-save').click()

    await page.getByTestId('client-secret').waitFor()
    const secret = await page.getByTestId('client-secret-value').inputValue()
    assert.isAtLeast(secret.length, 32)
    assert.include(
      await page.getByTestId('client-secret-warning').textContent(),
      'Shown only this once'
    )
    await checkPage(page, 'client-secret', assert)

    const stored = await adminApi('clients/orders-sync')
    assert.deepInclude(stored.body, {
      grantTypes: ['client_credentials'],
      accessTokenTimeToLive: '15m',
      resourceRoles: ['rest-minimal'],
      readOnly: false,
    })
    assert.notInclude(JSON.stringify(stored.body), secret)
    const token = await tokenWith('orders-sync', secret)
    assert.equal(token.status, 200)
    assert.equal(token.body.token_type, 'Bearer')
    assert.closeTo(token.body.expires_in, 900, 2)
    assert.equal(await permissionsStatus(token.body.access_token), 200)

    // The "try it" panel uses the secret just shown.
    assert.equal(await page.getByTestId('try-it-secret').inputValue(), secret)
    await page.getByTestId('try-it-run').click()
    await page.getByTestId('try-it-answer').waitFor()
    assert.equal(await page.getByTestId('try-it-status').textContent(), 'HTTP 200')
    assert.include(await page.getByTestId('try-it-body').textContent(), '"token_type": "Bearer"')
    assert.include(
      await page.getByTestId('try-it-curl').textContent(),
      `-u 'orders-sync:${secret}'`
    )
    assert.include(await page.getByTestId('try-it-use').textContent(), '/rest/permissions')
    await checkPage(page, 'client-try-it', assert)
    await context.close()
  })

  test('a redirect URI that is not absolute is refused at its row; nothing changed', async ({
    assert,
  }) => {
    const before = (await adminApi('clients/orders-sync')).body
    const { context, page } = await newPage(browser)
    await signIn(page, '/clients/orders-sync')
    await page.getByTestId('client-form').waitFor()
    await page.getByTestId('grant-authorization_code').check()
    await page.getByTestId('redirect-uri-add').click()
    await page.getByTestId('redirect-uri-input').first().fill('/callback')
    await page.getByTestId('client-save').click()
    const rowError = page.getByTestId('redirect-uri-row').first().getByTestId('field-error')
    assert.include(await rowError.textContent(), 'absolute URI')

    // One the server refuses (a fragment): its 422 at $.redirectUris[0] lands on the same row.
    await page.getByTestId('redirect-uri-input').first().fill('https://app.example.com/cb#top')
    await page.getByTestId('client-save').click()
    await page
      .getByTestId('redirect-uri-row')
      .first()
      .getByTestId('field-error')
      .filter({ hasText: 'fragment' })
      .waitFor()
    await checkPage(page, 'client-editor', assert)
    await page.getByTestId('theme-toggle').click()
    await checkPage(page, 'client-editor-dark', assert)
    await page.getByTestId('theme-toggle').click()
    assert.deepEqual((await adminApi('clients/orders-sync')).body, before)

    await page.getByTestId('redirect-uri-input').first().fill('https://app.example.com/cb')
    await page.getByTestId('client-save').click()
    await page.getByText('orders-sync saved').waitFor()
    const after = (await adminApi('clients/orders-sync')).body
    assert.deepEqual(after.redirectUris, ['https://app.example.com/cb'])
    assert.deepEqual(after.grantTypes, ['client_credentials', 'authorization_code'])
    await context.close()
  })

  test('rotate the secret, revoke every token (counted), delete', async ({ assert }) => {
    const first = await adminApi('clients/orders-sync')
    assert.equal(first.status, 200)
    const { context, page } = await newPage(browser)
    await signIn(page, '/clients/orders-sync')
    await page.getByTestId('client-rotate').click()
    assert.include(await page.getByTestId('confirm-dialog').textContent(), 'stops working at once')
    await page.getByTestId('confirm-ok').click()
    await page.getByTestId('client-secret').waitFor()
    const secret = await page.getByTestId('client-secret-value').inputValue()
    const token = await tokenWith('orders-sync', secret)
    assert.equal(token.status, 200)

    await page.getByTestId('client-revoke').click()
    const dialog = page.getByTestId('confirm-dialog')
    await dialog.waitFor()
    const count = /(\d+) tokens? \(access and refresh\)/.exec(
      (await dialog.textContent()) ?? ''
    )?.[1]
    assert.isDefined(count, 'the confirmation counts the tokens')
    assert.isAtLeast(Number(count), 1)
    await page.getByTestId('confirm-ok').click()
    await page.getByTestId('client-revoked').waitFor()
    assert.match(
      (await page.getByTestId('client-revoked').textContent()) ?? '',
      new RegExp(`^${count} tokens? revoked\\.$`)
    )
    assert.equal(await permissionsStatus(token.body.access_token), 401)

    await page.getByTestId('client-delete').click()
    await page.getByTestId('confirm-ok').click()
    await page.getByTestId('clients-table').waitFor()
    assert.equal((await adminApi('clients/orders-sync')).status, 404)
    assert.equal((await tokenWith('orders-sync', secret)).status, 401)
    await context.close()
  })
})
