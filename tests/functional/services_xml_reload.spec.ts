/**
 * The services XML (`svc.rest.services-config`, app/services/README.md) is read again when its
 * file changes, without a restart (a stat at most once a second): a method added, a method
 * removed, a malformed edit (500 until fixed), and the detailed OpenAPI document following it.
 */
import { test } from '@japa/runner'
import { mkdir, rm, utimes, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import app from '@adonisjs/core/services/app'
import { XML_CHECK_INTERVAL } from '#services/catalogue'
import { withProperty } from '#tests/helpers/files'
import { S, call, setupServices } from './services_fixtures.js'

const xml = (methods: string) =>
  `<services xmlns="http://jmix.io/schema/rest/services">
     <service name="stockService">${methods}</service>
   </services>`

let stamp = Date.now() / 1000
/** Writes the file with a modification time surely later than the last one. */
async function edit(file: string, text: string) {
  await writeFile(file, text)
  stamp += 10
  await utimes(file, stamp, stamp)
  await new Promise((resolve) => setTimeout(resolve, XML_CHECK_INTERVAL + 100))
}

const methodNames = async () => {
  const reply = await call(`${S}/stockService`)
  return { status: reply.status, names: reply.body?.methods?.map((m: any) => m.name) }
}

test.group('Services API: the XML reloads when its file changes', (group) => {
  group.setup(setupServices)

  test('an edited file shows within a second; a malformed one is a 500 until fixed', async ({
    assert,
  }) => {
    const dir = join(app.tmpPath(), `services-reload-test-${process.pid}`)
    await mkdir(dir, { recursive: true })
    const file = join(dir, 'services.xml')
    await writeFile(file, xml('<method name="count"/>'))
    try {
      await withProperty('svc.rest.services-config', file, async () => {
        assert.deepEqual(await methodNames(), { status: 200, names: ['count'] })
        assert.equal((await call(`${S}/stockService/lowStock`)).status, 404)

        await edit(file, xml('<method name="count"/><method name="lowStock" httpMethod="GET"/>'))
        assert.deepEqual(await methodNames(), { status: 200, names: ['count', 'lowStock'] })
        const low = await call(`${S}/stockService/lowStock`)
        assert.equal(low.status, 200, low.text)
        const docs = await call('/rest/docs/openapiDetailed.json')
        assert.property(docs.body.paths, '/services/stockService/lowStock')

        await edit(file, '<servics><service name="stockService"/></servics>')
        assert.equal((await call(`${S}/stockService`)).status, 500)

        await edit(file, xml('<method name="lowStock" httpMethod="GET"/>'))
        assert.deepEqual(await methodNames(), { status: 200, names: ['lowStock'] })
        assert.equal((await call(`${S}/stockService/count`)).status, 404)
        const after = await call('/rest/docs/openapiDetailed.json')
        assert.notProperty(after.body.paths, '/services/stockService/count')
        assert.property(after.body.paths, '/services/stockService/lowStock')
      })
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
    // Back to the configured file (the property's value changed again).
    const names = (await methodNames()).names
    assert.sameMembers(names, ['lowStock', 'count', 'label'])
  })
})
