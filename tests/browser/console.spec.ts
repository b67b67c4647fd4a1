import { test } from '@japa/runner'
import { chromium, type Browser } from 'playwright-core'
import { resetDatabase } from '#tests/helpers/database'
import { importDoc } from '#tests/helpers/engine'

const baseUrl = () => `http://${process.env.HOST}:${process.env.PORT}`

test.group('console in Chromium', (group) => {
  let browser: Browser
  group.setup(async () => {
    await resetDatabase()
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    })
    return () => browser.close()
  })

  test('shows the server status and the model version it serves', async ({ assert }) => {
    const result = await importDoc({
      entities: [{ name: 'shop_Item', attributes: [{ name: 'title', type: 'string' }] }],
    })
    const page = await browser.newPage()
    await page.goto(`${baseUrl()}/console/`)
    await page.getByTestId('server-status').waitFor()
    assert.equal(await page.getByTestId('server-status').textContent(), 'ok')
    assert.equal(await page.getByTestId('model-version').textContent(), String(result.version))
    assert.oneOf(await page.getByTestId('database').textContent(), ['sqlite', 'pg'])
    assert.include(await page.title(), 'Modelgate')
    await page.close()
  })
})
