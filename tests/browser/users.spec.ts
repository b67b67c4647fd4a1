/**
 * Console, users (console-ui/src/features/users): list, search, the anonymous user, create with a
 * role and a generated password (shown once), deactivate (the user's token is refused at once),
 * reset a password (generated, shown once) and sign in with it on the login form, and the last
 * administrator's admin role refused with nothing changed. Effects are read back through the
 * admin API and /rest/userInfo.
 */
import { test } from '@japa/runner'
import type { Browser } from 'playwright-core'
import db from '@adonisjs/lucid/services/db'
import hash from '@adonisjs/core/services/hash'
import User from '#models/user'
import { createUserWithRoles } from '#oauth/accounts'
import {
  baseUrl,
  checkPage,
  consoleUrl,
  fillLoginForm,
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
async function userToken(username: string) {
  const user = await User.findByOrFail('username', username)
  return (await accessToken(await makeClient({ resourceRoles: [] }), user)).token
}
const userInfoStatus = async (token: string) =>
  (await fetch(`${baseUrl()}/rest/userInfo`, { headers: bearer(token) })).status

test.group('console: users', (group) => {
  let browser: Browser
  group.setup(async () => {
    await resetForConsole()
    adminToken = (await accessToken(await makeClient({ resourceRoles: ['system-admin'] }))).token
    browser = await launchBrowser()
    return () => browser.close()
  })

  test('the list searches on the server and shows the anonymous user with its explanation', async ({
    assert,
  }) => {
    await createUserWithRoles(
      {
        username: 'erin',
        password: 'Erin-passw0rd-1',
        firstName: 'Erin',
        lastName: 'Example',
        email: 'erin@example.com',
      },
      { resourceRoles: ['rest-minimal'], rowLevelRoles: [] }
    )
    const { context, page } = await newPage(browser)
    await signIn(page, '/users')
    await page.getByTestId('users-table').waitFor()
    const rows = page.getByTestId('user-row')
    assert.deepEqual(await rows.evaluateAll((r) => r.map((e) => e.getAttribute('data-username'))), [
      'admin',
      'anonymous',
      'erin',
    ])
    assert.equal(
      await page.locator('[data-username="erin"] [data-testid="user-status"]').textContent(),
      'Active'
    )
    await checkPage(page, 'users-list', assert)

    await page.getByTestId('user-search').fill('example.com')
    await page.waitForURL(/q=example\.com/)
    await page.locator('[data-testid="user-row"]').first().waitFor()
    await page.waitForFunction(
      () => document.querySelectorAll('[data-testid="user-row"]').length === 1
    )
    assert.equal(await rows.first().getAttribute('data-username'), 'erin')
    await page.getByTestId('user-search').fill('nobody-like-this')
    await page.getByTestId('empty-state').waitFor()

    await page.goto(consoleUrl('/users/anonymous'))
    await page.getByTestId('anonymous-explanation').waitFor()
    assert.include(
      await page.getByTestId('anonymous-explanation').textContent(),
      'anonymous URL pattern'
    )
    assert.include(await page.getByTestId('anonymous-patterns').textContent(), 'None')
    assert.equal(await page.getByTestId('user-deactivate').count(), 0)
    assert.equal(await page.getByTestId('user-reset-password').count(), 0)
    await page.getByTestId('anonymous-roles').waitFor()
    await checkPage(page, 'user-anonymous', assert)
    await context.close()
  })

  test('create a user with a role and a generated password; deactivating it refuses its token at once', async ({
    assert,
  }) => {
    const { context, page } = await newPage(browser)
    await signIn(page, '/users/new')
    await page.getByTestId('user-username').fill('carol')
    await page.getByTestId('user-first-name').fill('Carol')
    await page.getByTestId('user-email').fill('carol@example.com')
    await page.getByTestId('user-timezone').fill('berlin')
    await page.getByTestId('timezone-option').filter({ hasText: 'Europe/Berlin' }).click()
    await pickOption(page, 'resource-roles', 'rest-minimal')
    await toTop(page)
    await checkPage(page, 'user-new', assert)
    await page.getByTestId('user-create').click()

    await page.getByTestId('generated-password').waitFor()
    const password = await page.getByTestId('generated-password-value').inputValue()
    assert.match(password, /^[\w-]{24}$/)
    assert.include(
      await page.getByTestId('generated-password-warning').textContent(),
      'Shown only this once'
    )
    await checkPage(page, 'user-password-once', assert)
    await page.getByTestId('theme-toggle').click()
    await checkPage(page, 'user-password-once-dark', assert)
    await page.getByTestId('theme-toggle').click()

    const created = await adminApi('users/carol')
    assert.equal(created.status, 200)
    assert.deepInclude(created.body, {
      firstName: 'Carol',
      email: 'carol@example.com',
      timeZone: 'Europe/Berlin',
      active: true,
      resourceRoles: ['rest-minimal'],
    })
    const row = await db.from('users').where('username', 'carol').first()
    assert.isTrue(await hash.use('scrypt').verify(row.password, password))

    const token = await userToken('carol')
    assert.equal(await userInfoStatus(token), 200)
    await page.getByTestId('open-created-user').click()
    await page.getByTestId('user-deactivate').click()
    const dialog = page.getByTestId('confirm-dialog')
    assert.include(await dialog.textContent(), 'stops working at once')
    await page.getByTestId('confirm-ok').click()
    await page.getByTestId('user-activate').waitFor()
    assert.equal(await page.getByTestId('user-status').textContent(), 'Inactive')
    assert.equal(await userInfoStatus(token), 401)
    assert.isFalse((await adminApi('users/carol')).body.active)
    await context.close()
  })

  test('reset a password (generated, shown once) and sign in with it on the login form', async ({
    assert,
  }) => {
    await createUserWithRoles(
      { username: 'dave', password: 'Dave-old-passw0rd' },
      { resourceRoles: ['rest-minimal'], rowLevelRoles: [] }
    )
    const before = await userToken('dave')
    const { context, page } = await newPage(browser)
    await signIn(page, '/users/dave')
    await page.getByTestId('user-form').waitFor()
    await checkPage(page, 'user-editor', assert)
    await page.getByTestId('theme-toggle').click()
    await checkPage(page, 'user-editor-dark', assert)
    await page.getByTestId('theme-toggle').click()
    await page.getByTestId('user-reset-password').click()
    assert.include(await page.getByTestId('password-dialog').textContent(), 'stop at once')
    await page.getByTestId('password-confirm').click()
    await page.getByTestId('generated-password').waitFor()
    const password = await page.getByTestId('generated-password-value').inputValue()
    await checkPage(page, 'user-password-reset', assert)
    assert.equal(await userInfoStatus(before), 401)
    await context.close()

    const fresh = await newPage(browser)
    await fresh.page.goto(consoleUrl('/'))
    await fresh.page.waitForURL(/\/as-login|\/oauth2\/authorize/)
    await fillLoginForm(fresh.page, 'dave', password)
    // Signed in (dave is no administrator: the console says so instead of opening).
    await fresh.page.getByTestId('not-admin').waitFor()
    assert.equal(await fresh.page.getByTestId('not-admin-user').textContent(), 'dave')
    await fresh.context.close()
  })

  test("removing the last administrator's admin role is refused with the reason; nothing changed", async ({
    assert,
  }) => {
    const before = (await adminApi('users/admin')).body
    const { context, page } = await newPage(browser)
    await signIn(page, '/users/admin')
    await page.getByTestId('user-form').waitFor()
    await page.getByRole('button', { name: 'Remove system-admin' }).click()
    await page.getByTestId('user-save').click()
    const error = page.getByTestId('resource-roles').getByTestId('field-error')
    await error.waitFor()
    assert.include(await error.textContent(), 'last active user with the admin role')
    await checkPage(page, 'user-last-admin-refused', assert)
    assert.deepEqual((await adminApi('users/admin')).body, before)

    await page.getByTestId('user-discard').click()
    await page.getByTestId('user-deactivate').click()
    await page.getByTestId('confirm-ok').click()
    const refusal = page.getByTestId('user-access-error')
    await refusal.waitFor()
    assert.include(await refusal.textContent(), 'nothing was changed')
    assert.include(await refusal.textContent(), 'lock everyone out')
    assert.deepEqual((await adminApi('users/admin')).body, before)
    await context.close()
  })
})
