import { test } from '@japa/runner'
import type { Browser } from 'playwright-core'
import { importDoc } from '#tests/helpers/engine'
import {
  checkPage,
  consoleUrl,
  fillLoginForm,
  launchBrowser,
  newPage,
  resetForConsole,
  signIn,
  PHONE,
} from '#tests/helpers/browser'
import { createUserWithRoles } from '#oauth/accounts'

test.group('console: sign-in and shell', (group) => {
  let browser: Browser
  group.setup(async () => {
    await resetForConsole()
    await importDoc({
      entities: [{ name: 'shop_Item', attributes: [{ name: 'title', type: 'string' }] }],
    })
    browser = await launchBrowser()
    return () => browser.close()
  })

  test('an unauthenticated deep link leads to the login form and back to the same page', async ({
    assert,
  }) => {
    const { context, page } = await newPage(browser)
    await signIn(page, '/history?tab=audit')
    assert.equal(new URL(page.url()).pathname, '/console/history')
    assert.equal(new URL(page.url()).searchParams.get('tab'), 'audit')
    assert.equal(await page.getByTestId('current-user').textContent(), 'admin')
    // Tokens are kept in memory only.
    const stored = await page.evaluate(
      () => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage })
    )
    assert.notInclude(stored, 'access_token')
    assert.notMatch(stored, /[A-Za-z0-9_-]{100,}/)
    await context.close()
  })

  test('the overview shows the server status, the model version and counts', async ({ assert }) => {
    const { context, page } = await newPage(browser)
    await signIn(page, '/')
    await page.getByTestId('server-status').waitFor()
    assert.equal(await page.getByTestId('server-status').textContent(), 'ok')
    assert.oneOf(await page.getByTestId('database').textContent(), ['sqlite', 'pg'])
    await page.getByTestId('count-entities').filter({ hasText: '1' }).waitFor()
    assert.match((await page.getByTestId('definition-version').textContent()) ?? '', /^v\d+$/)
    assert.include(await page.title(), 'Modelgate')
    await checkPage(page, 'overview', assert)
    await context.close()
  })

  test('the global search finds an attribute and opens its entity', async ({ assert }) => {
    const { context, page } = await newPage(browser)
    await signIn(page, '/')
    await page.keyboard.press('Control+k')
    await page.getByTestId('search-input').fill('title')
    await page.getByRole('option', { name: /shop_Item\.title/ }).waitFor()
    await page.keyboard.press('Enter')
    await page.waitForURL(/\/console\/model\/entities\/shop_Item/)
    assert.include(page.url(), 'attribute=title')
    await context.close()
  })

  test('a signed-in user without the admin right gets a clear page, not the console', async ({
    assert,
  }) => {
    await createUserWithRoles(
      { username: 'reader', password: 'Reader-passw0rd-1' },
      { resourceRoles: ['system-full-access'], rowLevelRoles: [] }
    )
    const { context, page } = await newPage(browser)
    await page.goto(consoleUrl('/model'))
    await page.waitForURL(/\/as-login|\/oauth2\/authorize/)
    await fillLoginForm(page, 'reader', 'Reader-passw0rd-1')
    await page.getByTestId('not-admin').waitFor()
    assert.equal(await page.getByTestId('not-admin-user').textContent(), 'reader')
    assert.equal(await page.getByTestId('nav').count(), 0)
    await context.close()
  })

  test('sign-out revokes the token and ends the session; the theme toggles; the phone layout has a menu', async ({
    assert,
  }) => {
    const { context, page } = await newPage(browser)
    await signIn(page, '/')
    assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'light')
    await page.getByTestId('theme-toggle').click()
    assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'dark')
    await page.getByTestId('server-status').waitFor()
    await checkPage(page, 'overview-dark', assert)
    await page.getByTestId('theme-toggle').click()

    await page.setViewportSize(PHONE)
    assert.isFalse(await page.getByTestId('nav').isVisible())
    await page.getByRole('button', { name: 'Menu' }).click()
    assert.isTrue(await page.getByTestId('nav').isVisible())
    await page.setViewportSize({ width: 1280, height: 800 })

    await page.getByTestId('sign-out').click()
    await page.getByTestId('signed-out').waitFor()
    // The login session is over: visiting the console asks for the password again.
    await page.goto(consoleUrl('/'))
    await page.waitForURL(/\/as-login|\/oauth2\/authorize/)
    assert.equal(await page.locator('input[name="password"]').count(), 1)
    await context.close()
  })
})
