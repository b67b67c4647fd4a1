/**
 * Console, history (console-ui/src/features/history): the schema changelog lists the DDL of
 * changes made through the admin API; the audit trail (also by deep link `?tab=audit`) lists
 * each change with its author, filters by element and author as the admin API does, and shows
 * an entry's before/after diff with the changed keys highlighted.
 */
import { test } from '@japa/runner'
import type { Browser } from 'playwright-core'
import User from '#models/user'
import {
  checkPage,
  baseUrl,
  launchBrowser,
  newPage,
  resetForConsole,
  signIn,
} from '#tests/helpers/browser'
import { accessToken, makeClient } from '#tests/helpers/resource_server'

let adminToken = ''
async function adminApi(method: string, path: string, body?: unknown) {
  const response = await fetch(`${baseUrl()}/admin/api/${path}`, {
    method,
    headers: { 'Authorization': `Bearer ${adminToken}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return { status: response.status, body: (await response.json()) as any }
}

test.group('console: history', (group) => {
  let browser: Browser
  group.setup(async () => {
    await resetForConsole()
    const admin = await User.findByOrFail('username', 'admin')
    adminToken = (await accessToken(await makeClient({ resourceRoles: [] }), admin)).token
    const steps = [
      await adminApi('POST', 'entities', {
        name: 'hist_Author',
        attributes: [{ name: 'name', type: 'string', length: 80, mandatory: true }],
      }),
      await adminApi('POST', 'entities', {
        name: 'hist_Book',
        attributes: [
          { name: 'title', type: 'string', length: 120 },
          {
            name: 'author',
            type: 'association',
            target: 'hist_Author',
            cardinality: 'MANY_TO_ONE',
          },
        ],
      }),
      await adminApi('PUT', 'entities/hist_Author/attributes/name', {
        name: 'name',
        type: 'string',
        length: 200,
        mandatory: true,
      }),
      await adminApi('POST', 'entities/hist_Book/attributes', { name: 'pages', type: 'int' }),
    ]
    for (const step of steps) if (step.status >= 300) throw new Error(JSON.stringify(step.body))
    browser = await launchBrowser()
    return () => browser.close()
  })

  test('the schema changelog lists the DDL of each change', async ({ assert }) => {
    const log = (await adminApi('GET', 'changelog?limit=500')).body
    const { context, page } = await newPage(browser)
    await signIn(page, '/history')
    assert.equal(
      await page.getByRole('tab', { name: 'Schema changelog' }).getAttribute('aria-selected'),
      'true'
    )
    await page.getByTestId('changelog-row').first().waitFor()
    assert.equal(await page.getByTestId('changelog-row').count(), log.total)
    assert.equal(
      await page.getByTestId('changelog-pager-range').textContent(),
      `1–${log.total} of ${log.total} schema changes`
    )
    const text = await page.getByTestId('changelog-table').textContent()
    assert.include(text, 'CREATE TABLE "hist_author"')
    assert.include(text, 'hist_book')
    await checkPage(page, 'history-changelog', assert)
    await context.close()
  })

  test('a deep link opens the audit trail: authors, element filter and an entry diff', async ({
    assert,
  }) => {
    const all = (await adminApi('GET', 'audit?limit=500')).body
    assert.equal(all.total, 4)
    const { context, page } = await newPage(browser)
    await signIn(page, '/history?tab=audit')
    assert.equal(
      await page.getByRole('tab', { name: 'Audit trail' }).getAttribute('aria-selected'),
      'true'
    )
    await page.getByTestId('audit-entry').first().waitFor()
    assert.equal(await page.getByTestId('audit-entry').count(), 4)
    assert.deepEqual(await page.getByTestId('audit-author').allTextContents(), [
      'admin',
      'admin',
      'admin',
      'admin',
    ])
    assert.deepEqual(
      await page
        .getByTestId('audit-entry')
        .evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-id')))),
      all.entries.map((e: any) => e.id)
    )
    await checkPage(page, 'history-audit', assert)

    // Filter by element: the same entries as the admin API's filter, the filter kept in the URL.
    const expected = (await adminApi('GET', 'audit?element=hist_Author')).body
    assert.equal(expected.total, 2)
    await page.getByTestId('audit-element-filter').fill('hist_Author')
    await page.waitForURL(/element=hist_Author/)
    await page.locator('[data-testid="audit-list"]:not([aria-busy="true"])').waitFor()
    await page.waitForFunction(
      () => document.querySelectorAll('[data-testid="audit-entry"]').length === 2
    )
    assert.deepEqual(
      await page
        .getByTestId('audit-entry')
        .evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-id')))),
      expected.entries.map((e: any) => e.id)
    )

    // The newest hist_Author entry: the length change, highlighted.
    const entry = page.getByTestId('audit-entry').first()
    await entry.getByTestId('audit-toggle').click()
    const diff = entry.getByTestId('json-diff')
    await diff.waitFor()
    const changed = diff.getByTestId('diff-changed')
    assert.equal(await changed.count(), 1)
    assert.match((await changed.textContent()) ?? '', /length.*80.*200/)
    assert.equal(await changed.locator('del').textContent(), '80')
    assert.equal(await changed.locator('ins').textContent(), '200')
    await checkPage(page, 'history-audit-diff', assert)
    await page.getByTestId('theme-toggle').click()
    await checkPage(page, 'history-audit-diff-dark', assert)
    await page.getByTestId('theme-toggle').click()

    // An author filter that matches nobody: an empty list, as the API says.
    await page.getByTestId('audit-author-filter').fill('nobody')
    await page.getByTestId('empty-state').waitFor()
    assert.equal((await adminApi('GET', 'audit?element=hist_Author&author=nobody')).body.total, 0)
    await page.getByTestId('audit-clear').click()
    await page.waitForFunction(
      () => document.querySelectorAll('[data-testid="audit-entry"]').length === 4
    )
    assert.notInclude(page.url(), 'element=')
    await context.close()
  })
})
