/**
 * Console, import/export (console-ui/src/features/transfer): the definition downloaded as JSON
 * and YAML (the files parse and hold the model), a changed document uploaded (file) or pasted
 * (YAML) shown as a readable diff with its SQL, applied at the planned version, and the effect
 * read back through the admin API; a plan that loses data needs the explicit tick; an invalid
 * document shows its problems at their paths and changes nothing.
 */
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs'
import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import type { Browser, Page } from 'playwright-core'
import User from '#models/user'
import { parseDocumentText, renderDocument } from '#definition/main'
import { importDoc } from '#tests/helpers/engine'
import {
  baseUrl,
  checkPage,
  launchBrowser,
  newPage,
  resetForConsole,
  signIn,
} from '#tests/helpers/browser'
import { accessToken, makeClient } from '#tests/helpers/resource_server'

let adminToken = ''
async function adminApi(path: string) {
  const response = await fetch(`${baseUrl()}/admin/api/${path}`, {
    headers: { Authorization: `Bearer ${adminToken}` },
  })
  return {
    status: response.status,
    etag: response.headers.get('etag'),
    body: (await response.json()) as any,
  }
}
const attributeNames = async (entity: string) =>
  ((await adminApi(`entities/${entity}`)).body.attributes as { name: string }[]).map((a) => a.name)

/** Clicks a download button and returns the file's name and text. */
async function download(page: Page, testId: string) {
  const [file] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId(testId).click(),
  ])
  return { name: file.suggestedFilename(), text: readFileSync((await file.path())!, 'utf8') }
}

async function planAndWait(page: Page) {
  await page.getByTestId('import-plan').click()
  await page.getByTestId('import-plan-view').waitFor()
}

test.group('console: import/export', (group) => {
  let browser: Browser
  group.setup(async () => {
    await resetForConsole()
    await importDoc({
      enums: [
        {
          name: 'tx.Genre',
          values: [
            { name: 'NOVEL', id: 'N' },
            { name: 'POEM', id: 'P' },
          ],
        },
      ],
      entities: [
        {
          name: 'tx_Book',
          attributes: [
            { name: 'title', type: 'string', length: 100, mandatory: true },
            { name: 'genre', type: 'enum', enum: 'tx.Genre' },
            { name: 'note', type: 'text' },
          ],
        },
      ],
    })
    const admin = await User.findByOrFail('username', 'admin')
    adminToken = (await accessToken(await makeClient({ resourceRoles: [] }), admin)).token
    browser = await launchBrowser()
    return () => browser.close()
  })

  test('exports JSON and YAML; a changed JSON file is shown as a diff and applied', async ({
    assert,
  }) => {
    const { context, page } = await newPage(browser)
    await signIn(page, '/import-export')
    await page.getByTestId('export-summary').filter({ hasText: '1 entity,' }).waitFor()
    await checkPage(page, 'import-export', assert)

    const json = await download(page, 'export-json')
    assert.match(json.name, /^modelgate-definition-v\d+\.json$/)
    const doc = JSON.parse(json.text)
    assert.deepEqual(
      doc.entities.map((e: any) => e.name),
      ['tx_Book']
    )
    const yaml = await download(page, 'export-yaml')
    assert.match(yaml.name, /\.yaml$/)
    assert.deepEqual(parseDocumentText(yaml.text, 'yaml'), doc)

    // Add an attribute and upload the changed file.
    doc.entities[0].attributes.push({ name: 'subtitle', type: 'string', length: 80 })
    const dir = app.makePath(`tmp/erhist-files-${process.pid}`)
    mkdirSync(dir, { recursive: true })
    writeFileSync(`${dir}/changed.json`, JSON.stringify(doc, null, 2))
    await page.getByTestId('import-file').setInputFiles(`${dir}/changed.json`)
    assert.equal(await page.getByTestId('import-format').textContent(), 'JSON')
    await planAndWait(page)
    const element = page.locator('[data-testid="diff-element"][data-element="tx_Book"]')
    assert.equal(await element.getAttribute('data-change'), 'changed')
    assert.equal(
      await element.getByTestId('diff-detail').textContent(),
      '+attribute subtitle added'
    )
    assert.include(await element.getByTestId('diff-added').textContent(), 'subtitle')
    assert.include(await page.getByTestId('plan-sql').first().textContent(), 'subtitle')
    // Nothing is applied before Apply.
    assert.deepEqual(await attributeNames('tx_Book'), ['title', 'genre', 'note'])
    await checkPage(page, 'import-export-plan', assert)
    await page.getByTestId('theme-toggle').click()
    await checkPage(page, 'import-export-plan-dark', assert)
    await page.getByTestId('theme-toggle').click()

    const before = Number(/\d+/.exec((await adminApi('definition')).etag ?? '')?.[0])
    await page.getByTestId('import-apply').click()
    await page.getByTestId('import-applied').waitFor()
    assert.deepEqual(await attributeNames('tx_Book'), ['title', 'genre', 'note', 'subtitle'])
    const audit = await adminApi('audit?limit=1')
    assert.equal(audit.body.entries[0].author.name, 'admin')
    assert.equal(audit.body.entries[0].definitionVersion, before + 1)
    await context.close()
  })

  test('a pasted YAML document is planned and applied with its own content type', async ({
    assert,
  }) => {
    const { context, page } = await newPage(browser)
    await signIn(page, '/import-export')
    const doc = (await adminApi('definition')).body
    doc.entities[0].attributes.push({ name: 'pages', type: 'int' })
    await page.getByTestId('import-text').fill(renderDocument(doc, 'yaml'))
    assert.equal(await page.getByTestId('import-format').textContent(), 'YAML')
    await planAndWait(page)
    assert.equal(
      await page
        .locator('[data-testid="diff-element"][data-element="tx_Book"] [data-testid="diff-detail"]')
        .textContent(),
      '+attribute pages added'
    )
    await page.getByTestId('import-apply').click()
    await page.getByTestId('import-applied').waitFor()
    assert.include(await attributeNames('tx_Book'), 'pages')
    await context.close()
  })

  test('dropping a column with values needs the explicit tick', async ({ assert }) => {
    await db
      .table('tx_book')
      .insert({ id: '6f1c2f3e-1111-4a6b-9c1d-1234567890ab', title: 'Kept', note: 'will go' })
    const { context, page } = await newPage(browser)
    await signIn(page, '/import-export')
    const doc = (await adminApi('definition')).body
    // Attributes a document leaves out are kept unless it says `prune`.
    doc.prune = true
    doc.entities[0].attributes = doc.entities[0].attributes.filter((a: any) => a.name !== 'note')
    await page.getByTestId('import-text').fill(JSON.stringify(doc))
    await planAndWait(page)
    assert.include(await page.getByTestId('plan-risks').textContent(), 'note')
    assert.equal(
      await page
        .locator('[data-testid="diff-element"][data-element="tx_Book"] [data-testid="diff-detail"]')
        .textContent(),
      '−attribute note removed'
    )
    assert.isTrue(await page.getByTestId('import-apply').isDisabled())
    await checkPage(page, 'import-export-risk', assert)
    assert.include(await attributeNames('tx_Book'), 'note')
    await page.getByTestId('import-accept-loss').check()
    await page.getByTestId('import-apply').click()
    await page.getByTestId('import-applied').waitFor()
    assert.notInclude(await attributeNames('tx_Book'), 'note')
    const row = await db.from('tx_book').first()
    assert.equal(row.title, 'Kept')
    await context.close()
  })

  test('an invalid document shows its problems at their paths and changes nothing', async ({
    assert,
  }) => {
    const { context, page } = await newPage(browser)
    await signIn(page, '/import-export')
    const before = await adminApi('definition')
    const doc = structuredClone(before.body)
    doc.entities[0].attributes.push({ name: 'broken', type: 'varchar(10)' })
    await page.getByTestId('import-text').fill(JSON.stringify(doc, null, 2))
    await page.getByTestId('import-plan').click()
    const problems = page.getByTestId('import-problems')
    await problems.waitFor()
    const problem = await page.getByTestId('import-problem').first().textContent()
    assert.include(problem, '$.entities[0].attributes[')
    assert.include(problem, 'varchar(10)')
    assert.equal(await page.getByTestId('import-apply').count(), 0)
    await checkPage(page, 'import-export-problems', assert)
    const after = await adminApi('definition')
    assert.equal(after.etag, before.etag)
    assert.deepEqual(after.body, before.body)
    await context.close()
  })
})
