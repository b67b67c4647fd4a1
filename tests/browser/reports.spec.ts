/**
 * Console, reports: the list (demo reports and one made through the admin API), the REST flag
 * switched in the list and seen by /rest/reports, a report built in the editor (a parameter, a
 * band with a query dataset, a CSV template) previewed before it is saved, run from the editor
 * (the download's type, name and CSV content), and its run in the execution history.
 */
import { test } from '@japa/runner'
import type { Browser } from 'playwright-core'
import { readFile } from 'node:fs/promises'
import { applyDoc } from '#tests/helpers/engine'
import { demoDocument } from '#tests/helpers/openapi'
import { seedBasics } from '#tests/helpers/entities_read'
import {
  checkPage,
  countWhenSettled,
  launchBrowser,
  newPage,
  resetForConsole,
  setChecked,
  signIn,
  toTop,
} from '#tests/helpers/browser'
import { baseUrl } from '#tests/helpers/oauth'
import { accessToken, makeClient } from '#tests/helpers/resource_server'
import { adminApi, setupAdminApi } from './roles_helpers.js'

const LISTED = '6f1c2a1e-7d5b-4c53-9a51-0c3d2b9e4a10'
const HTML_V1 = '<h1>Books</h1>{{#each Root.bands.Books}}<p>{{fields.title}}</p>{{/each}}'
const HTML_V2 =
  '<h1>Books above a price</h1>{{#each Root.bands.Books}}<p>{{fields.title}}: {{fields.price}}</p>{{/each}}'

/** The reports /rest/reports/report lists for a caller with every right. */
async function restReports(): Promise<{ id: string; name: string }[]> {
  const client = await makeClient({ resourceRoles: ['system-full-access'] })
  const token = (await accessToken(client)).token
  const response = await fetch(`${baseUrl()}/rest/reports/report`, {
    headers: { Authorization: `Bearer ${token}` },
  })
  if (response.status !== 200)
    throw new Error(`GET /rest/reports/report: ${response.status} ${await response.text()}`)
  return (await response.json()) as { id: string; name: string }[]
}

test.group('console: reports', (group) => {
  let browser: Browser
  let demoReports: string[] = []
  group.setup(async () => {
    await resetForConsole()
    const demo = await demoDocument()
    demoReports = Array.isArray(demo.reports) ? demo.reports.map((r: any) => String(r.name)) : []
    await applyDoc(demo)
    await seedBasics()
    await setupAdminApi()
    const created = await adminApi('POST', 'reports', {
      id: LISTED,
      name: 'Book list',
      code: 'BOOK_LIST',
      group: { id: '2b0e8e1c-3f4a-4d7e-8f60-1a2b3c4d5e6f', title: 'Catalogue' },
      restAccess: false,
      roles: [],
      inputParameters: [],
      bands: [
        {
          name: 'Books',
          orientation: 'HORIZONTAL',
          datasets: [{ type: 'query', entity: 'bookstore_Book', fields: ['title', 'price'] }],
          children: [],
        },
      ],
      valueFormats: [],
      templates: [{ code: 'DEFAULT', outputType: 'CSV', default: true }],
    })
    if (created.status !== 201)
      throw new Error(`create report: ${created.status} ${JSON.stringify(created.body)}`)
    browser = await launchBrowser()
    return () => browser.close()
  })

  test('list, REST flag, build and preview, run and download, history', async ({ assert }) => {
    const { context, page } = await newPage(browser)
    try {
      await signIn(page, '/reports')
      await page.getByTestId('reports-table').waitFor()
      const rows = page.getByTestId('report-row')
      assert.equal(await countWhenSettled(rows, demoReports.length + 1), demoReports.length + 1)
      const names = await rows.locator('.rp-name').allInnerTexts()
      assert.sameMembers(
        names,
        [...demoReports, 'Book list'],
        'the demo reports and the one made here'
      )
      await checkPage(page, 'reports-list', assert)
      await page.getByTestId('reports-filter').fill('book list')
      assert.equal(await countWhenSettled(page.getByTestId('report-row'), 1), 1)

      // The REST flag: switched in the list, stored, and /rest/reports lists the report.
      assert.notInclude(
        (await restReports()).map((r) => r.id),
        LISTED
      )
      const row = page.locator('[data-testid="report-row"][data-report="BOOK_LIST"]')
      await row.getByTestId('report-rest').click()
      await page.getByText('Available through the REST API', { exact: true }).waitFor()
      await row.locator('[data-testid="report-rest"][aria-checked="true"]').waitFor()
      assert.isTrue((await adminApi('GET', `reports/${LISTED}`)).body.restAccess)
      assert.include(
        (await restReports()).map((r) => r.id),
        LISTED
      )

      // Run from the list: a report without parameters, its CSV downloaded.
      await row.getByTestId('report-run').click()
      await page.getByTestId('run-dialog').waitFor()
      const listDownload = page.waitForEvent('download')
      await page.getByTestId('run-submit').click()
      const listed = await listDownload
      assert.match(listed.suggestedFilename(), /\.csv$/)
      const listedLines = (await readFile((await listed.path())!, 'utf8'))
        .replace(/^\uFEFF/, '')
        .trim()
        .split(/\r?\n/)
      assert.sameMembers(
        listedLines.slice(1).map((l) => l.split(',')[0]),
        ['Dune', '100% Pure_Fun']
      )
      await page.getByTestId('run-close').click()
      await page.getByTestId('run-dialog').waitFor({ state: 'detached' })

      // A demo report with an ENUMERATION parameter: its values offered, the default chosen; HTML.
      await page.getByTestId('reports-filter').fill('')
      await page
        .locator('[data-testid="report-row"][data-report="books-by-genre"]')
        .getByTestId('report-run')
        .click()
      const genre = page.getByTestId('run-param-genre')
      await genre.locator('option[value="POETRY"]').waitFor({ state: 'attached' })
      assert.equal(await genre.inputValue(), 'FICTION')
      assert.isAbove(await genre.locator('option').count(), 2)
      const htmlDownload = page.waitForEvent('download')
      const htmlAnswer = page.waitForResponse((r) => r.url().includes('/run'))
      await page.getByTestId('run-submit').click()
      assert.match((await htmlAnswer).headers()['content-type'], /^text\/html/)
      const htmlFile = await htmlDownload
      assert.match(htmlFile.suggestedFilename(), /\.html$/)
      assert.match(await readFile((await htmlFile.path())!, 'utf8'), /<html|<table|<h1/i)
      await page.getByTestId('run-close').click()
      await page.getByTestId('run-dialog').waitFor({ state: 'detached' })

      // A new report: a parameter, a band with a query over books, a CSV template.
      await page.getByTestId('new-report').click()
      await page.getByTestId('report-name').fill('Books above a price')
      await page.getByTestId('report-code').fill('BOOKS_ABOVE')
      await page.getByTestId('report-group').selectOption({ label: 'Catalogue' })
      await page.getByTestId('report-tab-parameters').click()
      await page.getByTestId('param-add').click()
      await page.getByTestId('param-caption').fill('Minimum price')
      await page.getByTestId('param-alias').fill('minPrice')
      await page.getByTestId('param-type').selectOption('NUMERIC')
      await setChecked(page, 'param-required', true)
      await page.getByTestId('report-tab-templates').click()
      await page.getByTestId('template-add').click()
      await page.getByTestId('template-output').selectOption('CSV')
      await page.getByTestId('template-name-pattern').fill('books-above')
      await page.getByTestId('template-add').click()
      const html = page.getByTestId('template-1')
      await html.getByTestId('template-code').fill('HTML')
      await html.getByTestId('template-output').selectOption('HTML')
      await html
        .getByTestId('template-upload')
        .setInputFiles({ name: 'books.html', mimeType: 'text/html', buffer: Buffer.from(HTML_V1) })
      await html.getByText('uploaded with the next save').waitFor()
      await page.getByTestId('report-tab-bands').click()
      await page.getByTestId('band-add').click()
      await page.getByTestId('band-name').fill('Books')
      await page.getByTestId('dataset-add').click()
      await page.getByTestId('dataset-entity').selectOption('bookstore_Book')
      await page.getByTestId('dataset-sort').fill('-price')
      await page.getByTestId('dataset-fields-add').selectOption('title')
      await page.getByTestId('dataset-fields-add').selectOption('price')
      await page.getByTestId('filter-add-condition').click()
      await page.getByTestId('filter-path-segment').first().selectOption('price')
      await page.getByTestId('filter-operator').selectOption('>')
      await page.getByTestId('filter-placeholder').selectOption(':minPrice')
      await page.getByTestId('dataset-type').selectOption('sql')
      await page.getByTestId('sql-warning').waitFor()
      await page.getByTestId('dataset-type').selectOption('query')

      await page.getByTestId('preview-param-minPrice').fill('10')
      await page.getByTestId('preview-run').click()
      await page.getByTestId('preview-total').filter({ hasText: /^1$/ }).waitFor()
      assert.deepEqual(
        (await page.getByTestId('preview-row').allInnerTexts()).map((t) => t.split('\t')[0]),
        ['Dune']
      )
      await checkPage(page, 'report-new-bands', assert)

      await page.getByTestId('report-save').click()
      await page.getByTestId('plan-dialog').waitFor()
      await page.getByTestId('plan-apply').click()
      await page.getByTestId('plan-dialog').waitFor({ state: 'detached' })
      await page.waitForURL(/\/console\/reports\/[0-9a-f-]{36}$/)
      const id = page.url().split('/').pop()!
      const saved = (await adminApi('GET', `reports/${id}`)).body
      assert.equal(saved.code, 'BOOKS_ABOVE')
      assert.equal(saved.group?.title, 'Catalogue')
      assert.deepEqual(
        saved.inputParameters.map((p: any) => [p.alias, p.type, p.required]),
        [['minPrice', 'NUMERIC', true]]
      )
      assert.deepEqual(saved.bands[0].datasets[0], {
        type: 'query',
        entity: 'bookstore_Book',
        filter: { conditions: [{ property: 'price', operator: '>', value: ':minPrice' }] },
        sort: '-price',
        fields: ['title', 'price'],
      })
      assert.deepEqual(
        saved.templates.map((t: any) => [
          t.code,
          t.outputType,
          t.default === true,
          t.fileName ?? null,
        ]),
        [
          ['DEFAULT', 'CSV', true, null],
          ['HTML', 'HTML', false, 'books.html'],
        ]
      )
      await toTop(page)
      await checkPage(page, 'report-editor', assert)

      // Templates: the stored HTML template's file replaced (PUT .../file) and downloaded.
      await page.getByTestId('report-tab-templates').click()
      await page
        .getByTestId('template-1')
        .getByTestId('template-upload')
        .setInputFiles({
          name: 'books-v2.html',
          mimeType: 'text/html',
          buffer: Buffer.from(HTML_V2),
        })
      await page.getByText('Uploaded books-v2.html').waitFor()
      await page.getByTestId('template-1').getByText('books-v2.html').waitFor()
      const fileToken = (await accessToken(await makeClient({ resourceRoles: ['system-admin'] })))
        .token
      const fileAnswer = await fetch(`${baseUrl()}/admin/api/reports/${id}/templates/HTML/file`, {
        headers: { Authorization: `Bearer ${fileToken}` },
      })
      assert.equal(await fileAnswer.text(), HTML_V2)
      await checkPage(page, 'report-templates', assert)
      const templateDownload = page.waitForEvent('download')
      await page.getByTestId('template-1').getByTestId('template-download').click()
      const templateFile = await templateDownload
      assert.equal(templateFile.suggestedFilename(), 'books-v2.html')
      assert.equal(await readFile((await templateFile.path())!, 'utf8'), HTML_V2)

      // Run from the editor: a parameter error at its field, then the CSV download.
      await page.getByTestId('report-run-open').click()
      await page.getByTestId('run-dialog').waitFor()
      await page.getByTestId('run-param-minPrice').fill('5')
      await checkPage(page, 'report-run', assert)
      const downloaded = page.waitForEvent('download')
      const answered = page.waitForResponse((r) => r.url().endsWith(`/admin/api/reports/${id}/run`))
      await page.getByTestId('run-submit').click()
      const response = await answered
      assert.equal(response.status(), 200, await response.text().catch(() => ''))
      const download = await downloaded
      assert.match(response.headers()['content-type'], /^(application|text)\/csv/)
      assert.equal(download.suggestedFilename(), 'books-above.csv')
      const text = (await readFile((await download.path())!, 'utf8')).replace(/^\uFEFF/, '')
      const lines = text.trim().split(/\r?\n/)
      assert.deepEqual(
        lines.slice(1).map((l) => l.split(',')[0]),
        ['Dune', '100% Pure_Fun']
      )
      assert.match(lines[0]!, /title/)
      await page.getByTestId('run-close').click()

      // The history shows the run.
      await page.getByTestId('report-history').click()
      await page.getByTestId('executions-table').waitFor()
      assert.equal(await countWhenSettled(page.getByTestId('execution-row'), 1), 1)
      const run = page.getByTestId('execution-row').first()
      assert.include(await run.innerText(), 'Books above a price')
      assert.equal(await run.getByTestId('execution-outcome').innerText(), 'success')
      await checkPage(page, 'report-history', assert)
    } finally {
      await context.close()
    }
  }).timeout(180_000)
})
