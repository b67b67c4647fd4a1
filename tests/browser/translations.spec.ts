/**
 * Console, translations: the keys x locales grid (missing texts marked, "only missing", search),
 * a text edited inline and saved, seen at once in /rest/messages with a token; a locale added
 * (a malformed one refused at its field, nothing changed). Effects through the public and admin
 * APIs.
 */
import { test } from '@japa/runner'
import type { Browser } from 'playwright-core'
import { importDoc } from '#tests/helpers/engine'
import {
  baseUrl,
  checkPage,
  launchBrowser,
  newPage,
  resetForConsole,
  signIn,
  setChecked,
} from '#tests/helpers/browser'
import { accessToken, makeClient } from '#tests/helpers/resource_server'

const LOCALES = 'svc.core.available-locales'
let adminToken = ''
let restToken = ''

async function get(path: string, token: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${baseUrl()}${path}`, {
    headers: { Authorization: `Bearer ${token}`, ...headers },
  })
  return { status: response.status, body: (await response.json()) as any }
}
const adminApi = async (path: string) => (await get(`/admin/api/${path}`, adminToken)).body

test.group('console: translations', (group) => {
  let browser: Browser
  group.setup(async () => {
    await resetForConsole()
    await importDoc({
      settings: { [LOCALES]: 'en,de' },
      enums: [
        {
          name: 'shop.Size',
          values: [
            { name: 'SMALL', id: 'S' },
            { name: 'LARGE', id: 'L' },
          ],
        },
      ],
      entities: [
        {
          name: 'shop_Item',
          caption: { en: 'Item', de: 'Artikel' },
          attributes: [
            { name: 'title', type: 'string', caption: { en: 'Title' } },
            { name: 'size', type: 'enum', enum: 'shop.Size' },
          ],
        },
      ],
    })
    adminToken = (await accessToken(await makeClient({ resourceRoles: ['system-admin'] }))).token
    restToken = (await accessToken(await makeClient({ resourceRoles: ['system-full-access'] })))
      .token
    browser = await launchBrowser()
    return () => browser.close()
  })

  test('the grid: captions count as translated, missing cells marked, "only missing" and search', async ({
    assert,
  }) => {
    const { context, page } = await newPage(browser)
    await signIn(page, '/translations')
    const grid = page.getByTestId('translation-grid')
    await grid.waitFor()
    await page.getByTestId('locale-column-de').waitFor()
    const row = (key: string) => grid.locator(`[data-testid="translation-row"][data-key="${key}"]`)
    assert.equal(await row('shop_Item').getByTestId('cell-de').getAttribute('data-missing'), null)
    assert.equal(
      await row('shop_Item.title').getByTestId('cell-en').getAttribute('data-missing'),
      null
    )
    assert.equal(
      await row('shop_Item.title').getByTestId('cell-de').getAttribute('data-missing'),
      'true'
    )
    assert.equal(
      await row('shop_Item').getByLabel('shop_Item in de').getAttribute('placeholder'),
      'Artikel'
    )
    await checkPage(page, 'translations', assert)

    await setChecked(page, 'only-missing', true)
    await row('shop_Item.size').waitFor()
    assert.equal(await row('shop_Item').count(), 0)
    assert.equal(await row('shop_Item.title').count(), 1)
    await checkPage(page, 'translations-missing', assert)

    await page.getByTestId('translations-search').fill('SMALL')
    await row('shop.Size.SMALL').waitFor()
    // The row was there before the search: wait for the others to go (the search applies after
    // a pause in typing), then count.
    await grid.getByTestId('translation-row').nth(1).waitFor({ state: 'detached' })
    assert.equal(await grid.getByTestId('translation-row').count(), 1)
    await context.close()
  })

  test('a text edited in the grid shows in /rest/messages at once', async ({ assert }) => {
    const { context, page } = await newPage(browser)
    await signIn(page, '/translations')
    const cell = page.getByLabel('shop_Item.title in de')
    await cell.fill('Titel')
    await page.getByLabel('shop.Size.LARGE in de').fill('Groß')
    assert.include(await page.getByTestId('unsaved-count').textContent(), '2 unsaved changes')
    await page.getByTestId('translations-save').click()
    await page.getByTestId('unsaved-count').filter({ hasText: 'No unsaved changes' }).waitFor()

    const stored = await adminApi('messages/de')
    const entry = stored.messages.find((m: any) => m.key === 'shop_Item.title')
    assert.equal(entry.stored, 'Titel')
    const entities = await get('/rest/messages/entities', restToken, { 'Accept-Language': 'de' })
    assert.equal(entities.status, 200)
    assert.equal(entities.body['shop_Item.title'], 'Titel')
    assert.equal(entities.body['shop_Item'], 'Artikel')
    const enums = await get('/rest/messages/enums', restToken, { 'Accept-Language': 'de' })
    assert.equal(enums.body['shop.Size.LARGE'], 'Groß')
    const english = await get('/rest/messages/entities', restToken, { 'Accept-Language': 'en' })
    assert.equal(english.body['shop_Item.title'], 'Title')

    // Emptying a cell removes the stored text: the caption/name fallback applies again.
    await page.getByLabel('shop.Size.LARGE in de').fill('')
    await page.getByTestId('translations-save').click()
    await page.getByTestId('unsaved-count').filter({ hasText: 'No unsaved changes' }).waitFor()
    const after = await get('/rest/messages/enums', restToken, { 'Accept-Language': 'de' })
    assert.equal(after.body['shop.Size.LARGE'], 'Large')
    await context.close()
  })

  test('add a locale: a malformed code is refused at the field, a good one becomes a column', async ({
    assert,
  }) => {
    const { context, page } = await newPage(browser)
    await signIn(page, '/translations')
    await page.getByTestId('locale-column-de').waitFor()
    await page.getByTestId('add-locale').click()
    const dialog = page.getByTestId('add-locale-dialog')
    await dialog.getByTestId('add-locale-code').fill('deutsch')
    await dialog.getByTestId('add-locale-submit').click()
    await dialog.getByTestId('field-error').waitFor()
    assert.include(
      await dialog.getByTestId('field-error').textContent(),
      "'deutsch' is not a locale"
    )
    await checkPage(page, 'translations-add-locale', assert)
    assert.deepEqual((await adminApi(`settings/${LOCALES}`)).value, ['en', 'de'])

    await dialog.getByTestId('add-locale-code').fill('fr')
    await dialog.getByTestId('add-locale-submit').click()
    await page.getByTestId('locale-column-fr').waitFor()
    assert.deepEqual((await adminApi(`settings/${LOCALES}`)).value, ['en', 'de', 'fr'])
    assert.deepEqual((await adminApi('messages')).locales, ['en', 'de', 'fr'])

    await page.getByLabel('shop_Item.title in fr').fill('Titre')
    await page.getByTestId('translations-save').click()
    await page.getByTestId('unsaved-count').filter({ hasText: 'No unsaved changes' }).waitFor()
    const french = await get('/rest/messages/entities/shop_Item', restToken, {
      'Accept-Language': 'fr',
    })
    assert.equal(french.body['shop_Item.title'], 'Titre')

    await page.getByTestId('theme-toggle').click()
    await checkPage(page, 'translations-dark', assert)
    await page.getByTestId('theme-toggle').click()
    await context.close()
  })
})
