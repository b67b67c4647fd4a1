/**
 * Console, settings page: every svc.* property grouped and searchable, edited with its own input,
 * a stored value removed back to its fallback; the URL pattern lists edited as lists (the
 * server's refusal at its row) and the URL tester. Effects are checked through the admin API and
 * through a real anonymous request; refused edits must change nothing.
 */
import { test } from '@japa/runner'
import type { Browser, Page } from 'playwright-core'
import app from '@adonisjs/core/services/app'
import { importDoc } from '#tests/helpers/engine'
import {
  PHONE,
  baseUrl,
  checkPage,
  launchBrowser,
  newPage,
  resetForConsole,
  signIn,
} from '#tests/helpers/browser'
import { accessToken, makeClient } from '#tests/helpers/resource_server'

const ANONYMOUS = 'svc.resource-server.anonymous-url-patterns'
const BULK = 'svc.rest.max-bulk-size'

let adminToken = ''
async function adminApi(path: string) {
  const response = await fetch(`${baseUrl()}/admin/api/${path}`, {
    headers: { Authorization: `Bearer ${adminToken}` },
  })
  return (await response.json()) as any
}
const setting = (name: string) => adminApi(`settings/${name}`)
const anonymousGet = (path: string) => fetch(`${baseUrl()}${path}`)

/** Runs the tester; resolves once the server's answer for `path` is on the page. */
async function runTest(page: Page, path: string) {
  await page.getByTestId('url-test-path').fill(path)
  // The previous result stays on the page until the new answer arrives: wait for the answer.
  const answered = page.waitForResponse((r) => r.url().includes('/admin/api/url-test'))
  await page.getByTestId('url-test-run').click()
  await answered
  await page.getByTestId('url-test-result').filter({ hasText: path }).waitFor()
  await page.waitForTimeout(150)
}

/** The tester's result at phone size (checkPage's phone shot keeps the desktop scroll position). */
async function phoneShot(page: Page, name: string) {
  const before = page.viewportSize()
  await page.setViewportSize(PHONE)
  await page.getByTestId('url-test-result').evaluate((el) => el.scrollIntoView({ block: 'center' }))
  await page.waitForTimeout(150)
  await page.screenshot({ path: app.makePath(`tmp/screenshots/${name}-phone.png`) })
  if (before) await page.setViewportSize(before)
}

/** The tester at the top of the viewport (scroll anchoring keeps it there at phone size). */
const showTester = (page: Page) =>
  page.getByTestId('url-tester').evaluate((el) => el.scrollIntoView({ block: 'start' }))

test.group('console: settings', (group) => {
  let browser: Browser
  group.setup(async () => {
    await resetForConsole()
    await importDoc({
      entities: [{ name: 'shop_Item', attributes: [{ name: 'title', type: 'string' }] }],
      resourceRoles: [
        {
          code: 'item-reader',
          entityPolicies: [{ entity: 'shop_Item', actions: ['read'] }],
          attributePolicies: [{ entity: 'shop_Item', attributes: ['*'], action: 'VIEW' }],
        },
      ],
      users: [{ username: 'anonymous', resourceRoles: ['item-reader'] }],
    })
    adminToken = (await accessToken(await makeClient({ resourceRoles: ['system-admin'] }))).token
    browser = await launchBrowser()
    return () => browser.close()
  })

  test('an anonymous URL pattern added as a list row: the tester explains it, an anonymous GET then works', async ({
    assert,
  }) => {
    const { context, page } = await newPage(browser)
    await signIn(page, '/settings')
    const list = page.getByTestId('anonymous-patterns')
    await list.getByTestId('anonymous-patterns-patterns-add').click()
    await list
      .getByTestId('anonymous-patterns-patterns-input')
      .last()
      .fill('/rest/entities/shop_Item/**')
    await list.getByTestId('anonymous-patterns-unsaved').waitFor()

    // The unsaved list is tested by the server before anything is stored.
    await runTest(page, '/rest/entities/shop_Item')
    assert.equal(await page.getByTestId('url-test-kind').textContent(), 'anonymous')
    assert.include(await page.getByTestId('url-test-result').textContent(), 'unsaved lists')
    assert.equal((await setting(ANONYMOUS)).source, 'default')
    assert.equal((await anonymousGet('/rest/entities/shop_Item')).status, 401)

    await list.getByTestId('anonymous-patterns-save').click()
    await list.getByTestId('setting-source').filter({ hasText: 'stored' }).waitFor()
    const stored = await setting(ANONYMOUS)
    assert.deepEqual(stored.value, ['/rest/entities/shop_Item/**'])
    assert.equal(stored.source, 'database')

    await runTest(page, '/rest/entities/shop_Item')
    assert.equal(await page.getByTestId('url-test-kind').textContent(), 'anonymous')
    assert.notInclude(await page.getByTestId('url-test-result').textContent(), 'unsaved lists')
    assert.equal(
      await page.getByTestId('url-test-anonymous-pattern').textContent(),
      '/rest/entities/shop_Item/**'
    )
    assert.equal(await page.getByTestId('url-test-authenticated-pattern').textContent(), '/rest/**')
    assert.equal(await page.getByTestId('url-test-token').textContent(), 'not needed')
    assert.include(await page.getByTestId('url-test-runs-as').textContent(), 'anonymous')
    assert.equal(await page.getByTestId('url-test-roles').textContent(), 'item-reader')
    await showTester(page)
    await checkPage(page, 'settings-url-tester', assert)
    await phoneShot(page, 'settings-url-tester-result')

    const response = await anonymousGet('/rest/entities/shop_Item')
    assert.equal(response.status, 200)
    assert.isArray(await response.json())

    // Another URL still needs a token, and the tester says so.
    await runTest(page, '/rest/entities/shop_Other')
    assert.equal(await page.getByTestId('url-test-kind').textContent(), 'authenticated')
    assert.include(await page.getByTestId('url-test-token').textContent(), 'required')
    assert.equal((await anonymousGet('/rest/entities/shop_Other')).status, 401)
    await context.close()
  })

  test('/** as an anonymous pattern is refused at its row and nothing changes', async ({
    assert,
  }) => {
    const before = await setting(ANONYMOUS)
    const { context, page } = await newPage(browser)
    await signIn(page, '/settings')
    const list = page.getByTestId('anonymous-patterns')
    await list.getByTestId('anonymous-patterns-patterns-add').click()
    await list.getByTestId('anonymous-patterns-patterns-input').last().fill('/**')
    await list.getByTestId('anonymous-patterns-save').click()
    const rows = list.getByTestId('anonymous-patterns-patterns-row')
    const refused = rows.last().getByTestId('field-error')
    await refused.waitFor()
    assert.include(await refused.textContent(), 'would open every URL')
    assert.equal(await rows.first().getByTestId('field-error').count(), 0)
    await checkPage(page, 'settings-pattern-refused', assert)

    assert.deepEqual(await setting(ANONYMOUS), before)
    assert.equal((await anonymousGet('/rest/entities/shop_Other')).status, 401)
    assert.equal((await anonymousGet('/health')).status, 200)
    await context.close()
  })

  test('typed inputs: a number stored, a refused value at its field, the stored value removed back to the default', async ({
    assert,
  }) => {
    const { context, page } = await newPage(browser)
    await signIn(page, '/settings')
    await page.getByTestId('settings-group-rest').waitFor()
    await checkPage(page, 'settings', assert)

    const bulk = page.getByTestId(`setting-${BULK}`)
    await bulk.getByTestId('setting-edit').click()
    await bulk.getByTestId('setting-input').fill('500')
    await bulk.getByTestId('setting-save').click()
    await bulk.getByTestId('setting-source').filter({ hasText: 'stored' }).waitFor()
    assert.include(await setting(BULK), { value: 500, source: 'database', stored: 500 })
    assert.include(await bulk.textContent(), 'Without the stored value: 10000')

    const upload = page.getByTestId('setting-svc.rest.max-upload-size')
    await upload.getByTestId('setting-edit').click()
    await upload.getByTestId('setting-input').fill('huge')
    await upload.getByTestId('setting-save').click()
    await upload.getByTestId('field-error').waitFor()
    assert.include(await upload.getByTestId('field-error').textContent(), 'must be a size')
    assert.include(await setting('svc.rest.max-upload-size'), { value: '20MB', source: 'default' })
    await checkPage(page, 'settings-field-error', assert)
    await upload.getByRole('button', { name: 'Cancel' }).click()

    const token = page.getByTestId('setting-svc.core.entitySerializationTokenRequired')
    await token.getByTestId('setting-edit').click()
    await token.getByTestId('setting-switch').click()
    await token.getByTestId('setting-save').click()
    await token.getByTestId('setting-source').filter({ hasText: 'stored' }).waitFor()
    assert.include(await setting('svc.core.entitySerializationTokenRequired'), { value: true })
    await token.getByTestId('setting-reset').click()
    const dialog = page.getByTestId('confirm-dialog')
    assert.include(await dialog.textContent(), 'off applies, from the built-in default')
    await page.getByTestId('confirm-ok').click()
    await token.getByTestId('setting-source').filter({ hasText: 'default' }).waitFor()
    assert.include(await setting('svc.core.entitySerializationTokenRequired'), {
      value: false,
      source: 'default',
      stored: null,
    })

    await page.getByTestId('settings-search').fill('cors')
    await page.getByTestId('settings-group-cors').waitFor()
    assert.equal(await page.getByTestId('settings-group-rest').count(), 0)
    assert.equal(await page.getByTestId('setting-svc.cors.allowed-origins').count(), 1)
    await context.close()
  })

  test('dark theme: the page and the tester read well', async ({ assert }) => {
    const { context, page } = await newPage(browser)
    await signIn(page, '/settings')
    await page.getByTestId('theme-toggle').click()
    await runTest(page, '/rest/entities/shop_Item')
    await checkPage(page, 'settings-dark', assert)
    await showTester(page)
    await checkPage(page, 'settings-url-tester-dark', assert)
    await page.getByTestId('theme-toggle').click()
    await context.close()
  })
})
