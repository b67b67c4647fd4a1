/**
 * Console, API reference (/console/api-docs): the detailed OpenAPI document rendered with the
 * entities the admin may read, and "try it" answered by the real REST API with the console's
 * own token.
 */
import { test } from '@japa/runner'
import type { Browser } from 'playwright-core'
import { applyDoc } from '#tests/helpers/engine'
import { demoDocument } from '#tests/helpers/openapi'
import {
  checkPage,
  launchBrowser,
  newPage,
  resetForConsole,
  signIn,
  countWhenSettled,
} from '#tests/helpers/browser'

test.group('console: API reference', (group) => {
  let browser: Browser
  group.setup(async () => {
    await resetForConsole()
    await applyDoc(await demoDocument())
    browser = await launchBrowser()
    return () => browser.close()
  })

  test('renders the detailed document and tries a request with the console token', async ({
    assert,
  }) => {
    const { context, page } = await newPage(browser)
    try {
      await signIn(page, '/api-docs')
      await page.getByTestId('tag-bookstore_Book').waitFor()
      assert.isTrue(await page.getByTestId('schema-bookstore_Book').isVisible())
      assert.isTrue(await page.getByTestId('tag-Entities').isVisible())
      await checkPage(page, 'apidocs', assert)

      await page.getByTestId('op-get-/entities/bookstore_Book/search/count').click()
      const card = page.getByTestId('operation').filter({ has: page.getByTestId('try-it') })
      await card.getByTestId('param-filter').fill('{"conditions":[]}')
      await card.getByRole('button', { name: 'Send' }).click()
      await card.getByTestId('try-it-status').waitFor()
      assert.equal(await card.getByTestId('try-it-status').textContent(), '200')
      assert.equal((await card.locator('pre').textContent())?.trim(), '0')

      await page.getByTestId('apidocs-filter').fill('userInfo')
      assert.equal(await countWhenSettled(page.getByTestId('operation'), 1), 1)
    } finally {
      await context.close()
    }
  }).timeout(120_000)
})
