/**
 * /favicon.ico (issue 19 item 8): browsers ask every origin for it; the server answers with the
 * console's icon (console-ui/public, shipped by the console build), without a token. The
 * console's page links its SVG icon.
 */
import { test } from '@japa/runner'
import { readFile } from 'node:fs/promises'
import app from '@adonisjs/core/services/app'
import { baseUrl } from '#tests/helpers/oauth'

test.group('favicon', () => {
  test('/favicon.ico: the console icon, no token, cacheable', async ({ assert }) => {
    const response = await fetch(`${baseUrl()}/favicon.ico`)
    assert.equal(response.status, 200)
    assert.match(
      response.headers.get('content-type') ?? '',
      /^image\/(x-icon|vnd\.microsoft\.icon)/
    )
    assert.include(response.headers.get('cache-control') ?? '', 'max-age=')
    const body = Buffer.from(await response.arrayBuffer())
    assert.deepEqual([...body.subarray(0, 4)], [0, 0, 1, 0], 'an ICO file')
    const source = await readFile(app.makePath('console-ui/public/favicon.ico'))
    assert.isTrue(body.equals(source), 'the icon of console-ui/public')
  })

  test('the console page links its SVG icon, served under /console/', async ({ assert }) => {
    const index = await (await fetch(`${baseUrl()}/console/`)).text()
    assert.include(index, '<link rel="icon" type="image/svg+xml" href="/console/favicon.svg"')
    const svg = await fetch(`${baseUrl()}/console/favicon.svg`)
    assert.equal(svg.status, 200)
    assert.include(svg.headers.get('content-type') ?? '', 'image/svg+xml')
    assert.include(await svg.text(), '<svg')
  })
})
