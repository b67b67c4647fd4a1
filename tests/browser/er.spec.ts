/**
 * Console, ER diagram (console-ui/src/features/er): an entity created through the admin API
 * appears with its attributes and relations (composition vs association, cardinalities), the
 * search focuses an entity and its neighbours, a click opens the model designer; light and dark
 * themes. The 200-entity model renders in under 1.5 s (time from the navigation click to every
 * node measured, printed).
 */
import { test } from '@japa/runner'
import type { Browser } from 'playwright-core'
import User from '#models/user'
import { importDoc } from '#tests/helpers/engine'
import { bigModel } from '../../scripts/er_model.js'
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

let adminToken = ''
async function adminApi(method: string, path: string, body?: unknown) {
  const response = await fetch(`${baseUrl()}/admin/api/${path}`, {
    method,
    headers: { 'Authorization': `Bearer ${adminToken}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return { status: response.status, body: (await response.json()) as any }
}

async function signInAdmin() {
  const admin = await User.findByOrFail('username', 'admin')
  adminToken = (await accessToken(await makeClient({ resourceRoles: [] }), admin)).token
}

test.group('console: ER diagram', (group) => {
  let browser: Browser
  group.setup(async () => {
    await resetForConsole()
    await importDoc({
      entities: [
        {
          name: 'er_Customer',
          attributes: [
            { name: 'name', type: 'string', length: 100, mandatory: true },
            {
              name: 'orders',
              type: 'association',
              target: 'er_Order',
              cardinality: 'ONE_TO_MANY',
              mappedBy: 'customer',
            },
          ],
        },
        {
          name: 'er_Order',
          attributes: [
            { name: 'number', type: 'string', length: 20, mandatory: true },
            {
              name: 'customer',
              type: 'association',
              target: 'er_Customer',
              cardinality: 'MANY_TO_ONE',
              mandatory: true,
            },
            {
              name: 'lines',
              type: 'composition',
              target: 'er_OrderLine',
              cardinality: 'ONE_TO_MANY',
              mappedBy: 'order',
            },
          ],
        },
        {
          name: 'er_OrderLine',
          attributes: [
            {
              name: 'order',
              type: 'association',
              target: 'er_Order',
              cardinality: 'MANY_TO_ONE',
              mandatory: true,
            },
            {
              name: 'product',
              type: 'association',
              target: 'er_Product',
              cardinality: 'MANY_TO_ONE',
            },
            { name: 'quantity', type: 'int' },
          ],
        },
        { name: 'er_Product', attributes: [{ name: 'price', type: 'decimal' }] },
        { name: 'er_Unrelated', attributes: [{ name: 'label', type: 'string' }] },
      ],
    })
    await signInAdmin()
    browser = await launchBrowser()
    return () => browser.close()
  })

  test('an entity created through the admin API is drawn with its relations; a click opens it', async ({
    assert,
  }) => {
    const created = await adminApi('POST', 'entities', {
      name: 'er_Invoice',
      attributes: [
        { name: 'total', type: 'decimal', mandatory: true },
        { name: 'order', type: 'association', target: 'er_Order', cardinality: 'MANY_TO_ONE' },
      ],
    })
    assert.equal(created.status, 201)

    const { context, page } = await newPage(browser)
    await signIn(page, '/er')
    await page.locator('[data-testid="er-canvas"][data-ready="true"]').waitFor()
    assert.equal(await page.getByTestId('er-node').count(), 6)
    const invoice = page.locator('[data-testid="er-node"][data-entity="er_Invoice"]')
    assert.deepEqual(await invoice.locator('.er-row__name').allTextContents(), [
      'id',
      'total',
      'order',
    ])
    assert.include(await invoice.locator('.er-row--association').textContent(), 'er_Order')
    // One edge per relation (bidirectional pairs merged), the composition drawn as such.
    assert.equal(await page.getByTestId('er-edge').count(), 4)
    assert.equal(await page.locator('[data-testid="er-edge"][data-kind="composition"]').count(), 1)
    const composition = page.locator('[data-testid="er-edge"][data-kind="composition"] text')
    assert.deepEqual(await composition.allTextContents(), ['*', '1', 'order / lines'])
    assert.equal(await page.locator('.react-flow__edge path[marker-end*="er-diamond"]').count(), 1)
    assert.isTrue(await page.locator('.react-flow__minimap').isVisible())
    await checkPage(page, 'er-diagram', assert)

    // Focus: the entity and its neighbour stay, the others are dimmed.
    await page.getByTestId('er-search').fill('Invoice')
    await page.getByRole('option', { name: 'er_Invoice' }).click()
    await page.locator('.react-flow__node.er-focus[data-id="er_Invoice"]').waitFor()
    assert.include(
      await page.locator('.react-flow__node[data-id="er_Order"]').getAttribute('class'),
      'er-related'
    )
    assert.include(
      await page.locator('.react-flow__node[data-id="er_Product"]').getAttribute('class'),
      'er-dim'
    )
    await setChecked(page, 'er-only-related', true)
    await page.locator('.react-flow__node[data-id="er_Product"]').waitFor({ state: 'hidden' })
    // Hidden entities are not drawn, so they do not hold the diagram back from being ready.
    await page.locator('[data-testid="er-canvas"][data-ready="true"]').waitFor()

    await page.getByTestId('theme-toggle').click()
    await page.waitForTimeout(400)
    await checkPage(page, 'er-diagram-dark', assert)
    await page.getByTestId('theme-toggle').click()

    await page.locator('.react-flow__node[data-id="er_Invoice"]').click()
    await page.waitForURL(/\/console\/model\/entities\/er_Invoice$/)
    assert.equal(new URL(page.url()).pathname, '/console/model/entities/er_Invoice')
    // The URL changes before the designer is on screen (the router renders the next page in a
    // transition); going back before that would return to the diagram still focused on Invoice.
    await page.getByTestId('entity-page').getByRole('heading', { name: 'er_Invoice' }).waitFor()

    // Keyboard: Enter on a focused entity opens it too (the diagram is drawn afresh).
    await page.goBack()
    await page.locator('[data-testid="er-canvas"][data-ready="true"]').waitFor()
    await page.locator('.react-flow__node[data-id="er_Customer"]').focus()
    await page.keyboard.press('Enter')
    await page.waitForURL(/\/console\/model\/entities\/er_Customer$/)
    await context.close()
  })
})

test.group('console: ER diagram of 200 entities', (group) => {
  let browser: Browser
  group.setup(async () => {
    await resetForConsole()
    await importDoc({ entities: bigModel() })
    browser = await launchBrowser()
    return () => browser.close()
  })

  test('draws every entity and relation; the time is printed', async ({ assert }) => {
    const { context, page } = await newPage(browser)
    await signIn(page, '/')
    // Best of three navigations from the overview: CI runs two test passes on two cores, so a
    // single reading measures the machine's load as much as the page.
    const walls: number[] = []
    let inPage = -1
    for (let round = 0; round < 3; round++) {
      if (round > 0) await page.getByTestId('nav').getByRole('link', { name: 'Overview' }).click()
      await page.getByTestId('server-status').waitFor()
      const started = Date.now()
      await page.getByTestId('nav').getByRole('link', { name: 'ER diagram' }).click()
      await page
        .locator('[data-testid="er-canvas"][data-ready="true"]')
        .waitFor({ timeout: 30_000 })
      walls.push(Date.now() - started)
      inPage = await page.evaluate(
        () => performance.getEntriesByName('er:render')[0]?.duration ?? -1
      )
      assert.equal(await page.getByTestId('er-node').count(), 200)
      assert.isAbove(await page.getByTestId('er-edge').count(), 200)
    }
    const wall = Math.min(...walls)
    console.log(
      `ER diagram, 200 entities: ${walls.join(', ')} ms from the navigation click to every node ` +
        `measured (best ${wall}; in the page, mount to ready: ${Math.round(inPage)} ms)`
    )
    // The 1.5 s target is a figure of `npm run bench:console` (a quiet machine, no second test
    // pass beside it); here only a regression by an order of magnitude (a layout gone quadratic)
    // fails the suite, not a busy CI machine.
    assert.isBelow(wall, 6000)
    await checkPage(page, 'er-diagram-200', assert)
    await context.close()
  }).timeout(120_000)
})
