import { test } from '@japa/runner'
import type { Browser, Page } from 'playwright-core'
import { applyDoc } from '#tests/helpers/engine'
import {
  checkPage,
  launchBrowser,
  newPage,
  resetForConsole,
  signIn,
  countWhenSettled,
  setChecked,
} from '#tests/helpers/browser'
import { accessToken, makeClient, raw, sendJson } from '#tests/helpers/resource_server'

/*
 * The data browser (console /data): everything it shows and writes goes through /rest with the
 * admin's token; the effects are checked through /rest with a token of a client of our own.
 */
const model = {
  enums: [
    {
      name: 'shop_Status',
      values: [
        { name: 'NEW', id: 'N', caption: { en: 'New' } },
        { name: 'PAID', id: 'P', caption: { en: 'Paid' } },
      ],
    },
  ],
  entities: [
    {
      name: 'shop_Customer',
      instanceName: 'name',
      traits: ['versioned'],
      attributes: [
        { name: 'name', type: 'string', length: 40, mandatory: true },
        { name: 'email', type: 'string' },
      ],
    },
    {
      name: 'shop_Order',
      instanceName: '{number} ({customer.name})',
      traits: ['versioned'],
      attributes: [
        { name: 'number', type: 'string', length: 20, mandatory: true },
        { name: 'date', type: 'date' },
        { name: 'status', type: 'enum', enum: 'shop_Status' },
        { name: 'amount', type: 'decimal', precision: 10, scale: 2 },
        { name: 'note', type: 'text' },
        { name: 'invoice', type: 'file' },
        {
          name: 'customer',
          type: 'association',
          cardinality: 'MANY_TO_ONE',
          target: 'shop_Customer',
          mandatory: true,
        },
        {
          name: 'lines',
          type: 'composition',
          cardinality: 'ONE_TO_MANY',
          target: 'shop_OrderLine',
          mappedBy: 'order',
        },
      ],
    },
    {
      name: 'shop_OrderLine',
      instanceName: '{product} x {quantity}',
      attributes: [
        {
          name: 'order',
          type: 'association',
          cardinality: 'MANY_TO_ONE',
          target: 'shop_Order',
          mandatory: true,
          onDelete: 'cascade',
        },
        { name: 'product', type: 'string', length: 60, mandatory: true },
        { name: 'quantity', type: 'int', mandatory: true, min: 1 },
      ],
    },
  ],
}

let token = ''
const rest = (method: string, path: string, body?: unknown) =>
  sendJson(token, method, `/rest${path}`, body)
const ids: Record<string, string> = {}

async function orderCount(): Promise<number> {
  const r = await raw('/rest/entities/shop_Order?limit=1&returnCount=true', {
    headers: { Authorization: `Bearer ${token}` },
  })
  return Number(r.headers['x-total-count'])
}

function assert201(status: number) {
  if (status !== 201) throw new Error(`bulk create answered ${status}`)
}

/** The error shown at the field whose input has this test id. */
const fieldError = (page: Page, testId: string) =>
  page.locator('.field', { has: page.getByTestId(testId) }).getByTestId('field-error')

test.group('console: data browser', (group) => {
  let browser: Browser
  group.setup(async () => {
    await resetForConsole()
    await applyDoc(model)
    token = (await accessToken(await makeClient())).token
    for (const name of ['Acme Corp', 'Globex', 'Initech']) {
      const r = await rest('POST', '/entities/shop_Customer', {
        name,
        email: `${name.split(' ')[0]!.toLowerCase()}@example.com`,
      })
      ids[name] = r.body.id
    }
    const orders = [
      { number: 'A-1', customer: 'Acme Corp', amount: 12.5, status: 'PAID', date: '2024-05-01' },
      { number: 'A-2', customer: 'Acme Corp', amount: 7, status: 'NEW', date: '2024-05-02' },
      { number: 'G-1', customer: 'Globex', amount: 99.99, status: 'NEW', date: '2024-06-01' },
      { number: 'I-1', customer: 'Initech', amount: 1, status: 'PAID', date: '2024-07-01' },
    ]
    for (const o of orders) {
      const r = await rest('POST', '/entities/shop_Order', {
        ...o,
        customer: { id: ids[o.customer] },
        lines: [{ product: `Part of ${o.number}`, quantity: 2 }],
      })
      ids[o.number] = r.body.id
    }
    const bulk = Array.from({ length: 130 }, (_, i) => ({
      name: `Bulk ${String(i + 1).padStart(3, '0')}`,
    }))
    assert201((await rest('POST', '/entities/shop_Customer', bulk)).status)
    browser = await launchBrowser()
    return () => browser.close()
  })

  test('the entity picker finds an entity; the table pages, sorts and shows references, enums and decimals', async ({
    assert,
  }) => {
    const { context, page } = await newPage(browser)
    await signIn(page, '/data')
    await page.getByTestId('entity-row').first().waitFor()
    assert.equal(await page.getByTestId('entity-row').count(), 3)
    await page.getByTestId('entity-rows').first().filter({ hasText: '133' }).waitFor()
    await checkPage(page, 'data-entities', assert)
    await page.getByTestId('entity-search').fill('order')
    assert.equal(await countWhenSettled(page.getByTestId('entity-row'), 2), 2)
    await page.getByTestId('entity-search').fill('shop_order')
    await page.getByTestId('entity-search').press('Enter')
    await page.waitForURL(/\/console\/data\/shop_Order$/)

    await page.getByTestId('data-row').first().waitFor()
    assert.equal(await page.getByTestId('data-row').count(), 4)
    assert.equal(await page.getByTestId('row-total').textContent(), '4 rows')
    const a1 = page.getByTestId('data-row').filter({ hasText: 'A-1 (Acme Corp)' })
    assert.equal(await a1.locator('td[data-col="customer"]').textContent(), 'Acme Corp')
    assert.equal(await a1.locator('td[data-col="status"]').textContent(), 'Paid')
    assert.equal(await a1.locator('td[data-col="amount"]').textContent(), '12.50')

    // Server sort: ascending, then descending by number.
    await page.getByTestId('col-number').getByTestId('sort-button').click()
    await page.waitForURL(/sort=number/)
    await page.getByTestId('col-number').getByTestId('sort-button').click()
    await page.waitForURL(/sort=-number/)
    await page.getByTestId('data-row').first().filter({ hasText: 'I-1' }).waitFor()
    assert.equal(await page.getByTestId('col-number').getAttribute('aria-sort'), 'descending')
    await checkPage(page, 'data-table', assert)

    assert.equal(await page.getByTestId('pager-range').textContent(), '1–4 of 4')

    // Column chooser: hide amount; the choice survives a reload.
    await page.getByTestId('columns-button').click()
    await setChecked(page, 'column-amount', false)
    await page.keyboard.press('Escape')
    assert.equal(await page.getByTestId('col-amount').count(), 0)
    await page.reload()
    await page.getByTestId('data-row').first().waitFor()
    assert.equal(await page.getByTestId('col-amount').count(), 0)
    assert.equal(await page.getByTestId('col-status').count(), 1)
    await context.close()
  })

  test('server paging, quick search, and a virtualized page of 500 rows', async ({ assert }) => {
    const { context, page } = await newPage(browser)
    await signIn(page, '/data/shop_Customer?size=25&sort=name')
    await page.getByTestId('data-row').first().waitFor()
    assert.equal(await page.getByTestId('pager-range').textContent(), '1–25 of 133')
    assert.equal(await page.getByTestId('data-row').count(), 25)
    assert.equal(await page.getByTestId('row-link').first().textContent(), 'Acme Corp')
    await page.getByTestId('page-next').click()
    await page.getByTestId('pager-range').filter({ hasText: '26–50 of 133' }).waitFor()
    assert.equal(new URL(page.url()).searchParams.get('page'), '2')
    assert.equal(await page.getByTestId('row-link').first().textContent(), 'Bulk 025')

    // 500 a page: every row is loaded, only the visible ones are in the DOM.
    await page.getByTestId('page-size').selectOption('500')
    await page.getByTestId('pager-range').filter({ hasText: '1–133 of 133' }).waitFor()
    const rendered = await page.getByTestId('data-row').count()
    assert.isBelow(rendered, 60)
    assert.isAbove(rendered, 10)
    await page.getByTestId('data-grid').evaluate((el) => el.scrollTo(0, el.scrollHeight))
    await page.getByTestId('row-link').filter({ hasText: 'Initech' }).waitFor()
    assert.equal(await page.getByTestId('row-link').filter({ hasText: 'Acme Corp' }).count(), 0)

    // Quick search: `contains` over the instance name's attributes.
    await page.getByTestId('quick-search').fill('bulk 12')
    await page.getByTestId('quick-search').press('Enter')
    await page.getByTestId('row-total').filter({ hasText: '10 rows (filtered)' }).waitFor()
    assert.equal(await page.getByTestId('row-link').first().textContent(), 'Bulk 120')
    await context.close()
  })

  test('a filter through a relation path returns the rows the API returns', async ({ assert }) => {
    const { context, page } = await newPage(browser)
    await signIn(page, '/data/shop_Order')
    await page.getByTestId('data-row').first().waitFor()
    await page.getByTestId('filter-toggle').click()
    await page.getByLabel('Condition 1 property', { exact: true }).selectOption('customer')
    await page.getByLabel('Condition 1 property of shop_Customer').selectOption('name')
    await page.getByLabel('Condition 1 operator').selectOption('startsWith')
    await page.getByLabel('Condition 1 value').fill('acm')
    await checkPage(page, 'data-filter', assert)
    await page.getByTestId('filter-apply').click()
    await page.getByTestId('row-total').filter({ hasText: '2 rows' }).waitFor()
    const shown = (await page.getByTestId('row-link').allTextContents()).sort()
    assert.deepEqual(shown, ['A-1 (Acme Corp)', 'A-2 (Acme Corp)'])
    const filter = JSON.parse(new URL(page.url()).searchParams.get('filter') ?? 'null')
    assert.deepEqual(filter, {
      conditions: [{ property: 'customer.name', operator: 'startsWith', value: 'acm' }],
    })
    const api = await rest('POST', '/entities/shop_Order/search', {
      filter,
      fetchPlan: '_instance_name',
    })
    assert.deepEqual(api.body.map((r: any) => r._instanceName).sort(), shown)

    // An incomplete condition is pointed at before anything is sent.
    await page.getByTestId('filter-add-condition').first().click()
    await page.getByTestId('filter-apply').click()
    assert.equal(await page.getByTestId('filter-error').textContent(), 'Choose a property')
    await context.close()
  })

  test('a new row with a picked reference and a child row is written through /rest', async ({
    assert,
  }) => {
    const { context, page } = await newPage(browser)
    await signIn(page, '/data/shop_Order')
    await page.getByTestId('new-row').click()
    await page.waitForURL(/\/data\/shop_Order\/new$/)
    await page.getByTestId('input-number').fill('N-100')
    await page.getByTestId('input-date').fill('2024-08-15')
    await page.getByTestId('input-status').selectOption('PAID')
    await page.getByTestId('input-amount').fill('42.5')
    await page.getByTestId('input-customer').locator('input').fill('glo')
    await page.getByTestId('ref-option').filter({ hasText: 'Globex' }).click()
    assert.equal(await page.getByTestId('input-customer').locator('input').inputValue(), 'Globex')
    await page.getByTestId('add-lines').click()
    await page.getByTestId('input-lines[0].product').fill('Widget')
    await page.getByTestId('input-lines[0].quantity').fill('3')
    await page.getByTestId('row-save').click()
    await page.waitForURL(/\/data\/shop_Order\/[0-9a-f-]{36}$/)
    const id = new URL(page.url()).pathname.split('/').pop()!
    await page.getByRole('heading', { level: 1, name: 'N-100 (Globex)' }).waitFor()

    const plan = JSON.stringify({
      properties: [
        'number',
        'date',
        'status',
        'amount',
        'customer',
        { name: 'lines', fetchPlan: { properties: ['product', 'quantity'] } },
      ],
    })
    const read = await rest(
      'GET',
      `/entities/shop_Order/${id}?fetchPlan=${encodeURIComponent(plan)}`
    )
    assert.equal(read.status, 200)
    assert.equal(read.body.number, 'N-100')
    assert.equal(read.body.date, '2024-08-15')
    assert.equal(read.body.status, 'PAID')
    assert.equal(read.body.amount, 42.5)
    assert.equal(read.body.customer.id, ids.Globex)
    assert.deepEqual(
      read.body.lines.map((l: any) => [l.product, l.quantity]),
      [['Widget', 3]]
    )
    await context.close()
  })

  test('validation errors appear at their fields and nothing is written', async ({ assert }) => {
    const before = await orderCount()
    const { context, page } = await newPage(browser)
    await signIn(page, '/data/shop_Order/new')
    await page.getByTestId('input-number').fill('X'.repeat(25))
    await page.getByTestId('add-lines').click()
    await page.getByTestId('input-lines[0].product').fill('Gadget')
    await page.getByTestId('input-lines[0].quantity').fill('0')
    await page.getByTestId('row-save').click()
    await fieldError(page, 'input-number').waitFor()
    assert.equal(
      await fieldError(page, 'input-number').textContent(),
      'size must be between 0 and 20'
    )
    assert.equal(await fieldError(page, 'input-customer').textContent(), 'must not be null')
    assert.equal(
      await fieldError(page, 'input-lines[0].quantity').textContent(),
      'must be greater than or equal to 1'
    )
    assert.equal(await fieldError(page, 'input-date').count(), 0)
    assert.include(await page.getByTestId('write-error').textContent(), 'Some values are not valid')
    assert.match(page.url(), /\/new$/)
    await checkPage(page, 'data-form-error', assert)
    assert.equal(await orderCount(), before)
    await context.close()
  })

  test('a concurrent change is a conflict: nothing is overwritten; reload, or re-apply the edits', async ({
    assert,
  }) => {
    const url = `/entities/shop_Order/${ids['A-1']}`
    /** Someone else updates the row after the form was opened. */
    const changeBehindTheForm = async (note: string) => {
      const current = await rest('GET', url)
      const other = await rest('PUT', url, { version: current.body.version, note })
      assert.equal(other.status, 200)
      return other.body.version as number
    }
    const { context, page } = await newPage(browser)
    await signIn(page, `/data/shop_Order/${ids['A-1']}`)
    await page.getByTestId('input-note').waitFor()
    await page.getByTestId('input-note').fill('from the console')
    const version = await changeBehindTheForm('from the API')
    await page.getByTestId('row-save').click()
    await page.getByTestId('conflict').waitFor()
    assert.include(
      await page.getByTestId('conflict').textContent(),
      'Someone else changed this row'
    )
    await page.getByTestId('conflict-server').filter({ hasText: 'from the API' }).waitFor()
    assert.include(await page.getByTestId('conflict-row').textContent(), 'from the console')
    await checkPage(page, 'data-conflict', assert)
    const after = await rest('GET', url)
    assert.equal(after.body.note, 'from the API')
    assert.equal(after.body.version, version)

    // Reload: the form shows the stored row, the edit is gone.
    await page.getByTestId('conflict-reload').click()
    await page.getByTestId('conflict').waitFor({ state: 'detached' })
    assert.equal(await page.getByTestId('input-note').inputValue(), 'from the API')
    assert.equal(await page.getByTestId('unsaved').count(), 0)

    // Re-apply: the edit is put on top of the newer version and saved from it.
    await page.getByTestId('input-note').fill('second try')
    await changeBehindTheForm('again from the API')
    await page.getByTestId('row-save').click()
    await page.getByTestId('conflict-reapply').click()
    await page.getByTestId('conflict').waitFor({ state: 'detached' })
    assert.equal(await page.getByTestId('input-note').inputValue(), 'second try')
    assert.equal((await rest('GET', url)).body.note, 'again from the API')
    await page.getByTestId('row-save').click()
    await page.getByTestId('unsaved').waitFor({ state: 'detached' })
    assert.equal((await rest('GET', url)).body.note, 'second try')
    assert.equal(await page.getByTestId('input-note').inputValue(), 'second try')
    await context.close()
  })

  test('a file attribute is uploaded through /rest/files, saved as its fileRef and downloadable', async ({
    assert,
  }) => {
    const { context, page } = await newPage(browser)
    await signIn(page, `/data/shop_Order/${ids['A-2']}`)
    await page
      .getByTestId('input-invoice')
      .getByTestId('file-upload')
      .setInputFiles({
        name: 'invoice.txt',
        mimeType: 'text/plain',
        buffer: Buffer.from('hello invoice'),
      })
    await page
      .getByTestId('input-invoice')
      .getByTestId('file-download')
      .filter({ hasText: 'invoice.txt' })
      .waitFor()
    await page.getByTestId('row-save').click()
    await page.getByTestId('unsaved').waitFor({ state: 'detached' })
    const fileRef: string = (await rest('GET', `/entities/shop_Order/${ids['A-2']}`)).body.invoice
    assert.match(fileRef, /^fs:\/\/.*name=invoice\.txt$/)
    const file = await raw(`/rest/files?fileRef=${encodeURIComponent(fileRef)}`, {
      headers: { Authorization: `Bearer ${token}` },
    })
    assert.equal(file.text, 'hello invoice')

    const download = page.waitForEvent('download')
    await page.getByTestId('input-invoice').getByTestId('file-download').click()
    assert.equal((await download).suggestedFilename(), 'invoice.txt')
    await context.close()
  })

  test('delete asks for confirmation; cancel keeps the row, confirm removes it', async ({
    assert,
  }) => {
    const { context, page } = await newPage(browser)
    await signIn(page, `/data/shop_Order/${ids['G-1']}`)
    await page.getByTestId('row-delete').click()
    await page.getByTestId('confirm-dialog').waitFor()
    assert.include(await page.getByTestId('confirm-dialog').textContent(), 'G-1 (Globex)')
    await checkPage(page, 'data-delete-confirm', assert)
    await page.getByRole('button', { name: 'Cancel' }).click()
    assert.equal((await rest('GET', `/entities/shop_Order/${ids['G-1']}`)).status, 200)

    await page.getByTestId('row-delete').click()
    await page.getByTestId('confirm-ok').click()
    await page.waitForURL(/\/data\/shop_Order$/)
    assert.equal((await rest('GET', `/entities/shop_Order/${ids['G-1']}`)).status, 404)
    await page.getByTestId('data-row').first().waitFor()
    assert.equal(await page.getByTestId('data-row').filter({ hasText: 'G-1' }).count(), 0)
    await context.close()
  })
})
