/**
 * The model designer (console-ui/src/features/model) in Chromium through the real server: every
 * change is planned, shown (with its SQL) and applied through the admin API; each test checks the
 * effect (or that nothing changed) through the admin API and the REST API.
 */
import { test } from '@japa/runner'
import type { Browser, Page } from 'playwright-core'
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

let token = ''

/** A request with the admin client's token (system-admin + system-full-access). */
async function call(method: string, path: string, body?: unknown) {
  const response = await fetch(`${baseUrl()}${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await response.text()
  return {
    status: response.status,
    headers: response.headers,
    body: text ? JSON.parse(text) : null,
  }
}

const entity = async (name: string) => (await call('GET', `/admin/api/entities/${name}`)).body
const definition = async () => {
  const reply = await call('GET', '/admin/api/definition')
  return {
    version: reply.headers.get('etag'),
    model: JSON.stringify([reply.body.entities, reply.body.enums, reply.body.fetchPlans]),
  }
}

/** Presses Tab until the element with `testId` (or matching `selector`) has the focus. */
async function tabTo(page: Page, selector: string, max = 80) {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab')
    if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return
  }
  throw new Error(`Tab never reached ${selector}`)
}

async function openEntity(page: Page, name: string) {
  await page.goto(`${baseUrl()}/console/model/entities/${name}`)
  await page.getByTestId('attributes-panel').waitFor()
}

test.group('console: model designer', (group) => {
  let browser: Browser
  let itemId = ''
  group.setup(async () => {
    await resetForConsole()
    await importDoc({
      enums: [
        {
          name: 'shop.Colour',
          values: [
            { name: 'RED', id: 'R', caption: { en: 'Red' } },
            { name: 'GREEN', id: 'G' },
          ],
        },
      ],
      entities: [
        {
          name: 'shop_Customer',
          instanceName: 'name',
          attributes: [{ name: 'name', type: 'string', mandatory: true }],
        },
        {
          name: 'shop_Item',
          instanceName: 'title',
          traits: ['versioned'],
          attributes: [
            { name: 'title', type: 'string', length: 80, mandatory: true },
            { name: 'note', type: 'string' },
            { name: 'colour', type: 'enum', enum: 'shop.Colour' },
            { name: 'price', type: 'decimal', precision: 10, scale: 2 },
            { name: 'stock', type: 'int' },
            {
              name: 'buyer',
              type: 'association',
              cardinality: 'MANY_TO_ONE',
              target: 'shop_Customer',
            },
          ],
        },
      ],
      fetchPlans: [
        {
          entity: 'shop_Item',
          name: 'item-card',
          extends: '_instance_name',
          properties: ['price'],
        },
      ],
    })
    const client = await makeClient({ resourceRoles: ['system-admin', 'system-full-access'] })
    token = (await accessToken(client, null, 3600)).token
    const buyer = await call('POST', '/rest/entities/shop_Customer', { name: 'Ada' })
    const created = await call('POST', '/rest/entities/shop_Item', {
      title: 'Lamp',
      note: 'keep me',
      colour: 'RED',
      price: 12.5,
      stock: 3,
      buyer: { id: buyer.body.id },
    })
    itemId = created.body.id
    await call('POST', '/rest/entities/shop_Item', {
      title: 'Chair',
      colour: 'GREEN',
      buyer: { id: buyer.body.id },
    })
    browser = await launchBrowser()
    return () => browser.close()
  })

  test('the entity list, its tabs, enums and fetch plans', async ({ assert }) => {
    const { context, page } = await newPage(browser)
    await signIn(page, '/model')
    const row = page.getByTestId('entity-row-shop_Item')
    await row.waitFor()
    assert.include(await row.textContent(), 'versioned')
    await row.getByTestId('entity-rows').filter({ hasText: '2' }).waitFor()
    await page.getByTestId('entity-filter').fill('cust')
    // The list filters as the admin types (deferred rendering): wait for it.
    await page.getByTestId('entity-row-shop_Item').waitFor({ state: 'detached' })
    assert.equal(await page.getByTestId('entity-row-shop_Item').count(), 0)
    assert.equal(await page.getByTestId('entity-row-shop_Customer').count(), 1)
    await page.getByTestId('entity-filter').fill('')
    await checkPage(page, 'model-list', assert)

    await page.getByRole('link', { name: 'Enums' }).click()
    await page.getByTestId('enum-row-shop.Colour').waitFor()
    assert.include(await page.getByTestId('enum-row-shop.Colour').textContent(), 'shop_Item.colour')
    await checkPage(page, 'model-enums', assert)
    await page.getByRole('link', { name: 'shop.Colour' }).click()
    await page.getByTestId('enum-values').waitFor()
    await checkPage(page, 'model-enum-editor', assert)

    await page.goto(`${baseUrl()}/console/model/fetch-plans`)
    await page.getByTestId('plan-row-shop_Item-item-card').waitFor()
    await checkPage(page, 'model-fetch-plans', assert)
    await context.close()
  })

  test('create an entity with three attributes and a relation: the plan shows the SQL, then it exists', async ({
    assert,
  }) => {
    const { context, page } = await newPage(browser)
    await signIn(page, '/model/entities/new')
    await page.getByTestId('entity-name').fill('shop_Order')
    await page.getByTestId('entity-caption-en').fill('Order')
    await page.getByTestId('trait-audited').check()

    const add = async (fill: () => Promise<void>) => {
      await page.getByTestId('add-attribute').click()
      await page.getByTestId('attribute-dialog').waitFor()
      await fill()
      await page.getByTestId('attribute-save').click()
      await page.getByTestId('attribute-dialog').waitFor({ state: 'detached' })
    }
    await add(async () => {
      await page.getByTestId('attribute-name').fill('number')
      await page.getByTestId('attribute-length').fill('20')
      await page.getByTestId('attribute-mandatory').check()
      await page.getByTestId('attribute-unique').check()
    })
    await add(async () => {
      await page.getByTestId('attribute-name').fill('quantity')
      await page.getByTestId('attribute-type').selectOption('int')
      await page.getByTestId('attribute-min').fill('1')
      await checkPage(page, 'model-attribute-editor', assert)
    })
    await add(async () => {
      await page.getByTestId('attribute-name').fill('placedOn')
      await page.getByTestId('attribute-type').selectOption('date')
    })
    await add(async () => {
      await page.getByTestId('attribute-name').fill('customer')
      await page.getByTestId('attribute-type').selectOption('association')
      await page.getByTestId('attribute-target').fill('shop_Cus')
      await page.getByRole('option', { name: /shop_Customer/ }).click()
      await page.getByTestId('cardinality-MANY_TO_ONE').check()
      await page.getByTestId('attribute-on-delete').selectOption('deny')
      await checkPage(page, 'model-relation-editor', assert)
    })
    await page.getByTestId('entity-instance-name').fill('{number} ({customer.name})')
    assert.equal(await page.getByTestId('attribute-table').locator('tbody tr').count(), 4 + 5)

    await page.getByTestId('create-entity').click()
    const plan = page.getByTestId('plan-dialog')
    await plan.waitFor()
    const sql = (await plan.getByTestId('plan-sql').allTextContents()).join('\n')
    assert.match(sql, /CREATE TABLE "shop_order"/)
    assert.include(sql, '"customer_id"')
    assert.include(await plan.getByTestId('plan-changes').textContent(), 'entity shop_Order: added')
    await checkPage(page, 'model-plan-dialog', assert)
    await page.getByTestId('plan-apply').click()
    await page.waitForURL(/\/console\/model\/entities\/shop_Order$/)
    await page.getByTestId('attribute-row-customer').waitFor()

    const metadata = await call('GET', '/rest/metadata/entities/shop_Order')
    assert.equal(metadata.status, 200)
    const names = metadata.body.properties.map((p: { name: string }) => p.name)
    assert.includeMembers(names, ['number', 'quantity', 'placedOn', 'customer', 'createdBy'])
    const stored = await entity('shop_Order')
    assert.deepEqual(stored.attributes[0], {
      name: 'number',
      type: 'string',
      length: 20,
      mandatory: true,
      unique: true,
    })
    assert.deepEqual(stored.attributes[1], { name: 'quantity', type: 'int', min: 1 })
    assert.deepInclude(stored.attributes[3], {
      target: 'shop_Customer',
      cardinality: 'MANY_TO_ONE',
      onDelete: 'deny',
    })
    assert.equal(stored.instanceName, '{number} ({customer.name})')
    await context.close()
  })

  test('an invalid attribute name is shown at its field and nothing changes', async ({
    assert,
  }) => {
    const before = await definition()
    const { context, page } = await newPage(browser)
    await signIn(page, '/model/entities/shop_Item')
    await page.getByTestId('add-attribute').click()
    await page.getByTestId('attribute-name').fill('9lives')
    await page.getByTestId('attribute-save').click()
    const error = page.getByTestId('attribute-dialog').getByTestId('field-error')
    await error.waitFor()
    assert.include(await error.textContent(), "invalid attribute name '9lives'")
    assert.equal(await page.getByTestId('attribute-name').getAttribute('aria-invalid'), 'true')
    assert.equal(await page.getByTestId('plan-dialog').count(), 0)
    assert.deepEqual(await definition(), before)
    await context.close()
  })

  test('renaming an attribute keeps its values: the plan says rename, not drop and add', async ({
    assert,
  }) => {
    const { context, page } = await newPage(browser)
    await signIn(page, '/model/entities/shop_Item?attribute=note')
    assert.equal(await page.getByTestId('attribute-row-note').getAttribute('aria-current'), 'true')
    await page.getByTestId('edit-attribute-note').click()
    await page.getByTestId('attribute-name').fill('remark')
    await page.getByTestId('attribute-save').click()
    const plan = page.getByTestId('plan-dialog')
    await plan.waitFor()
    assert.include(
      await plan.getByTestId('plan-changes').textContent(),
      'attribute remark renamed from note'
    )
    const sql = (await plan.getByTestId('plan-sql').allTextContents()).join('\n')
    assert.match(sql, /RENAME COLUMN "note" TO "remark"/)
    assert.notMatch(sql, /DROP COLUMN/i)
    assert.equal(await plan.getByTestId('plan-risks').count(), 0)
    await page.getByTestId('plan-apply').click()
    await page.getByTestId('attribute-row-remark').waitFor()

    const row = await call('GET', `/rest/entities/shop_Item/${itemId}`)
    assert.equal(row.body.remark, 'keep me')
    assert.notProperty(row.body, 'note')
    await context.close()
  })

  test('a cancelled plan leaves the model unchanged', async ({ assert }) => {
    const before = await definition()
    const { context, page } = await newPage(browser)
    await signIn(page, '/model/entities/shop_Item')
    await page.getByTestId('edit-attribute-title').click()
    await page.getByTestId('attribute-length').fill('120')
    await page.getByTestId('attribute-save').click()
    await page.getByTestId('plan-dialog').waitFor()
    await page.getByTestId('plan-cancel').click()
    await page.getByTestId('plan-dialog').waitFor({ state: 'detached' })
    // Back in the attribute editor with the edit still there.
    assert.equal(await page.getByTestId('attribute-length').inputValue(), '120')
    await page.getByTestId('attribute-cancel').click()
    assert.deepEqual(await definition(), before)
    assert.equal((await entity('shop_Item')).attributes[0].length, 80)
    await context.close()
  })

  test('deleting an attribute that holds data is refused without the tick', async ({ assert }) => {
    const before = await definition()
    const { context, page } = await newPage(browser)
    await signIn(page, '/model/entities/shop_Item')
    await page.getByTestId('delete-attribute-stock').click()
    await page.getByTestId('confirm-ok').click()
    const plan = page.getByTestId('plan-dialog')
    await plan.waitFor()
    assert.include(await plan.getByTestId('plan-risks').textContent(), 'Data would be lost')
    assert.isTrue(await page.getByTestId('plan-apply').isDisabled())
    assert.isFalse(await page.getByTestId('plan-accept-loss').isChecked())
    await page.keyboard.press('Escape')
    await plan.waitFor({ state: 'detached' })
    assert.deepEqual(await definition(), before)
    const row = await call('GET', `/rest/entities/shop_Item/${itemId}`)
    assert.equal(row.body.stock, 3)
    await context.close()
  })

  test('a change made behind the page is a 412 with a reload, and nothing is overwritten', async ({
    assert,
  }) => {
    const { context, page } = await newPage(browser)
    await signIn(page, '/model/entities/shop_Item')
    await page.getByTestId('entity-description').fill('Things we sell')
    // Someone else changes the model meanwhile.
    const other = await call('POST', '/admin/api/entities/shop_Item/attributes', {
      name: 'sku',
      type: 'string',
    })
    assert.equal(other.status, 201)
    await page.getByTestId('general-review').click()
    const notice = page.getByTestId('stale-notice')
    await notice.waitFor()
    assert.include(await notice.textContent(), 'nothing was changed')
    assert.equal(await page.getByTestId('plan-dialog').count(), 0)
    const stored = await entity('shop_Item')
    assert.notProperty(stored, 'description')
    assert.isTrue(stored.attributes.some((a: { name: string }) => a.name === 'sku'))
    await page.getByTestId('stale-reload').click()
    await page.getByTestId('attribute-row-sku').waitFor()
    assert.equal(await page.getByTestId('stale-notice').count(), 0)
    await context.close()
  })

  test('the instance name has a live preview on real rows; the entity editor', async ({
    assert,
  }) => {
    const { context, page } = await newPage(browser)
    await signIn(page, '/model/entities/shop_Item')
    await page.getByTestId('instance-name-now').first().waitFor()
    await page.getByTestId('entity-instance-name').fill('{title} ({colour}, {buyer.name})')
    await page
      .getByTestId('instance-name-preview-value')
      .filter({ hasText: 'Lamp (Red, Ada)' })
      .waitFor()
    await page
      .getByTestId('instance-name-preview-value')
      .filter({ hasText: 'Chair (GREEN, Ada)' })
      .waitFor()
    assert.includeMembers(await page.getByTestId('instance-name-now').allTextContents(), [
      'Lamp',
      'Chair',
    ])
    await page.getByTestId('general-discard').click()
    await page.evaluate(() => window.scrollTo(0, 0))
    await checkPage(page, 'model-entity-editor', assert)
    await context.close()
  })

  test('a fetch plan with a live preview of the unsaved edit, then saved', async ({ assert }) => {
    const { context, page } = await newPage(browser)
    await signIn(page, '/model/fetch-plans/new?entity=shop_Item')
    await page.getByTestId('plan-name').fill('item-buyer')
    await page.getByTestId('plan-extends').selectOption('')
    await page.getByTestId('plan-prop-title').check()
    await page.getByTestId('plan-prop-buyer').check()
    await page.getByTestId('plan-nested-buyer').selectOption('__inline__')
    await page.getByTestId('plan-prop-buyer.name').check()
    const json = page.getByTestId('plan-preview-json')
    await json.filter({ hasText: '"name": "Ada"' }).waitFor()
    const shown = JSON.parse((await json.textContent()) ?? '{}')
    assert.oneOf(shown.title, ['Lamp', 'Chair'])
    assert.deepEqual(Object.keys(shown.buyer).sort(), [
      '_entityName',
      '_instanceName',
      'id',
      'name',
    ])
    assert.notProperty(shown, 'price')
    assert.include(await page.getByTestId('plan-preview-source').textContent(), 'unsaved')
    await checkPage(page, 'model-fetch-plan-editor', assert)

    await page.getByTestId('plan-review').click()
    await page.getByTestId('plan-dialog').waitFor()
    await page.getByTestId('plan-apply').click()
    await page.waitForURL(/\/model\/fetch-plans\/shop_Item\/item-buyer$/)
    await page
      .getByTestId('plan-preview-source')
      .filter({ hasText: '?fetchPlan=item-buyer' })
      .waitFor()
    const stored = await call('GET', '/admin/api/fetch-plans/shop_Item/item-buyer')
    assert.deepEqual(stored.body.properties, [
      'title',
      { name: 'buyer', fetchPlan: { extends: '_instance_name', properties: ['name'] } },
    ])
    await context.close()
  })

  test('renaming an enum: the attributes that use it follow', async ({ assert }) => {
    const { context, page } = await newPage(browser)
    await signIn(page, '/model/enums/shop.Colour')
    await page.getByTestId('enum-name').fill('shop.Color')
    await page.getByTestId('enum-value-name-1').fill('GREEN')
    await page.getByTestId('enum-review').click()
    await page.getByTestId('plan-dialog').waitFor()
    await page.getByTestId('plan-apply').click()
    await page.waitForURL(/\/model\/enums\/shop\.Color$/)
    const item = await entity('shop_Item')
    assert.equal(
      item.attributes.find((a: { name: string }) => a.name === 'colour').enum,
      'shop.Color'
    )
    const row = await call('GET', `/rest/entities/shop_Item/${itemId}`)
    assert.equal(row.body.colour, 'RED')
    await context.close()
  })

  test('keyboard only: open an entity, open an attribute, close it', async ({ assert }) => {
    const { context, page } = await newPage(browser)
    await signIn(page, '/model')
    await page.getByTestId('entity-row-shop_Item').waitFor()
    await tabTo(page, 'a[href$="/model/entities/shop_Item"]')
    await page.keyboard.press('Enter')
    await page.waitForURL(/\/model\/entities\/shop_Item$/)
    await page.getByTestId('attributes-panel').waitFor()
    await tabTo(page, '[data-testid="edit-attribute-title"]')
    await page.keyboard.press('Enter')
    await page.getByTestId('attribute-dialog').waitFor()
    // The focus moves into the dialog (and is trapped there).
    await page.waitForFunction(
      () => !!document.activeElement?.closest('[data-testid="attribute-dialog"]')
    )
    await page.keyboard.press('Tab')
    assert.isTrue(
      await page.evaluate(
        () => !!document.activeElement?.closest('[data-testid="attribute-dialog"]')
      )
    )
    await page.keyboard.press('Escape')
    await page.getByTestId('attribute-dialog').waitFor({ state: 'detached' })
    // The focus returns to where it was.
    await page.waitForFunction(
      () => document.activeElement?.getAttribute('data-testid') === 'edit-attribute-title'
    )
    assert.equal(await page.getByTestId('attribute-dialog').count(), 0)
    await context.close()
  })
  test('an index, then an entity rename: the table is renamed, rows and relations follow', async ({
    assert,
  }) => {
    const { context, page } = await newPage(browser)
    await signIn(page, '/model/entities/shop_Item')
    await page.getByTestId('add-index').click()
    await page.getByTestId('index-add-column-0').selectOption('title')
    await page.getByTestId('index-add-column-0').selectOption('colour')
    await page.getByTestId('review-indexes').click()
    await page.getByTestId('plan-dialog').waitFor()
    assert.match(
      (await page.getByTestId('plan-sql').allTextContents()).join('\n'),
      /CREATE INDEX .* ON "shop_item" \("title", "colour"\)/
    )
    await page.getByTestId('plan-apply').click()
    await page.getByTestId('plan-dialog').waitFor({ state: 'detached' })
    assert.deepEqual((await entity('shop_Item')).indexes, [{ attributes: ['title', 'colour'] }])

    await openEntity(page, 'shop_Customer')
    await page.getByTestId('entity-name').fill('shop_Client')
    await page.getByTestId('general-review').click()
    const plan = page.getByTestId('plan-dialog')
    await plan.waitFor()
    assert.include(
      await plan.getByTestId('plan-changes').textContent(),
      'entity shop_Client: renamed from shop_Customer'
    )
    const sql = (await plan.getByTestId('plan-sql').allTextContents()).join('\n')
    assert.match(sql, /ALTER TABLE "shop_customer" RENAME TO "shop_client"/)
    assert.notMatch(sql, /DROP TABLE "shop_customer"/)
    await page.getByTestId('plan-apply').click()
    await page.waitForURL(/\/model\/entities\/shop_Client$/)
    const rows = await call('GET', '/rest/entities/shop_Client')
    assert.deepEqual(
      rows.body.map((r: { name: string }) => r.name),
      ['Ada']
    )
    const buyer = (await entity('shop_Item')).attributes.find(
      (a: { name: string }) => a.name === 'buyer'
    )
    assert.equal(buyer.target, 'shop_Client')
    await context.close()
  })
})
