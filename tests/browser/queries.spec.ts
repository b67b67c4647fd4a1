/**
 * Console, named queries: a query built with the filter builder and a typed parameter, its
 * preview for a given value, saved through the plan dialog; the stored query (admin API) and
 * what /rest/queries answers for it match the preview; the list shows it; delete.
 */
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import type { Browser } from 'playwright-core'
import { importDoc } from '#tests/helpers/engine'
import { checkPage, launchBrowser, newPage, resetForConsole, signIn } from '#tests/helpers/browser'
import { baseUrl } from '#tests/helpers/oauth'
import { accessToken, makeClient } from '#tests/helpers/resource_server'
import { adminApi, setupAdminApi } from './roles_helpers.js'

const NOTE = 'qb_Note'

test.group('console: named queries', (group) => {
  let browser: Browser
  group.setup(async () => {
    await resetForConsole()
    await importDoc({
      entities: [
        {
          name: NOTE,
          instanceName: 'title',
          attributes: [
            { name: 'title', type: 'string' },
            { name: 'pages', type: 'int' },
          ],
        },
      ],
    })
    await db.table('qb_note').multiInsert(
      [2, 20, 200].map((pages, i) => ({
        id: `00000000-0000-4000-8000-00000000000${i + 1}`,
        title: `note ${pages}`,
        pages,
      }))
    )
    await setupAdminApi()
    browser = await launchBrowser()
    return () => browser.close()
  })

  test('build, preview, save, run through /rest/queries, delete', async ({ assert }) => {
    const { context, page } = await newPage(browser)
    await signIn(page, '/queries')
    await page.getByTestId('empty-state').waitFor()
    await checkPage(page, 'queries-empty', assert)
    await page.getByTestId('new-query').click()
    await page.getByTestId('query-entity').selectOption(NOTE)
    await page.getByTestId('query-name').fill('longer')
    await page.getByTestId('query-sort').fill('-pages')
    await page.getByTestId('param-add').click()
    await page.getByTestId('param-name').fill('min')
    await page.getByTestId('param-type').selectOption('int')
    await page.getByTestId('filter-add-condition').click()
    await page.getByTestId('filter-path-segment').first().selectOption('pages')
    await page.getByTestId('filter-operator').selectOption('>')
    await page.getByTestId('filter-placeholder').selectOption(':min')
    await page.getByTestId('preview-value-min').fill('10')
    await page.getByTestId('preview-run').click()
    await page.getByTestId('preview-count').filter({ hasText: /^2$/ }).waitFor()
    await checkPage(page, 'query-new-preview', assert)
    assert.equal((await adminApi('GET', `queries/${NOTE}/longer`)).status, 404, 'not saved yet')

    await page.getByTestId('query-save').click()
    await page.getByTestId('plan-dialog').waitFor()
    await checkPage(page, 'query-plan', assert)
    await page.getByTestId('plan-apply').click()
    await page.getByTestId('plan-dialog').waitFor({ state: 'detached' })
    await page.waitForURL(/\/console\/queries\/qb_Note\/longer$/)
    const saved = await adminApi('GET', `queries/${NOTE}/longer`)
    assert.deepEqual(saved.body, {
      entity: NOTE,
      name: 'longer',
      filter: { conditions: [{ property: 'pages', operator: '>', value: ':min' }] },
      sort: '-pages',
      params: [{ name: 'min', type: 'int' }],
    })
    const client = await makeClient({ resourceRoles: ['system-full-access'] })
    const token = (await accessToken(client)).token
    const run = await fetch(`${baseUrl()}/rest/queries/${NOTE}/longer?min=10`, {
      headers: { Authorization: `Bearer ${token}` },
    })
    assert.deepEqual(
      ((await run.json()) as any[]).map((n) => n.title),
      ['note 200', 'note 20']
    )

    await page.getByTestId('nav').getByRole('link', { name: 'Queries' }).click()
    await page.getByTestId(`query-${NOTE}-longer`).waitFor()
    await checkPage(page, 'queries-list', assert)
    await page.getByTestId(`query-${NOTE}-longer`).getByRole('link').click()
    await page.getByTestId('query-delete').click()
    await page.getByTestId('plan-apply').click()
    await page.waitForURL(/\/console\/queries$/)
    assert.equal((await adminApi('GET', `queries/${NOTE}/longer`)).status, 404)
    await context.close()
  })
})
