/**
 * Issue 22, item 7: a TypeScript client generated with openapi-typescript from the detailed
 * description of the demo application typechecks, and its types carry the model's rules
 * (required attributes, enum values, relations).
 */
import { execFile } from 'node:child_process'
import { mkdir, rm, writeFile } from 'node:fs/promises'
import { promisify } from 'node:util'
import app from '@adonisjs/core/services/app'
import { test } from '@japa/runner'
import openapiTS, { astToString } from 'openapi-typescript'
import { resetDatabase } from '#tests/helpers/database'
import { applyDoc } from '#tests/helpers/engine'
import { setupAdminActors } from '#tests/helpers/admin'
import { assertValidOpenApi, demoDocument, getDoc } from '#tests/helpers/openapi'

const USAGE = `import type { components, paths } from './bookstore.js'

type Book = components['schemas']['bookstore_Book']
type Order = components['schemas']['bookstore_Order']
type One = paths['/entities/bookstore_Book/{entityId}']['get']['responses'][200]['content']['application/json']

export const book: One = {
  _entityName: 'bookstore_Book',
  id: '00000000-0000-4000-8000-000000000001',
  version: 1,
  title: 'Dune',
  isbn: '9780441013593',
  price: 9.99,
  pageCount: 412,
  currency: { id: '00000000-0000-4000-8000-000000000002', name: 'Euro', symbol: 'EUR' },
}
export const title: string = book.title
// @ts-expect-error a mandatory attribute is missing
export const incomplete: Book = { _entityName: 'bookstore_Book', id: 'x', version: 1, title: 't', isbn: 'i' }
// @ts-expect-error pageCount is an integer
export const wrong: Book = { ...book, pageCount: 'many' }
export const status: Order['status'] = 'NEW'
// @ts-expect-error not a value of the enum
export const badStatus: Order['status'] = 'NOT_A_STATUS'
export const customerName: string | undefined = ({} as Order).customer?.name
`

test.group('OpenAPI: generated TypeScript client', (group) => {
  group.setup(async () => {
    await resetDatabase()
    await setupAdminActors()
    await applyDoc(await demoDocument())
  })

  test('openapi-typescript output of the detailed demo document typechecks', async ({ assert }) => {
    const reply = await getDoc('admin', '/rest/docs/openapiDetailed.json')
    assert.equal(reply.status, 200)
    await assertValidOpenApi(reply.body)
    const dir = app.makePath('tmp', `openapi-client-${process.env.TEST_ID ?? process.pid}`)
    await rm(dir, { recursive: true, force: true })
    await mkdir(dir, { recursive: true })
    const types = astToString(await openapiTS(reply.body))
    await writeFile(`${dir}/bookstore.d.ts`, types)
    await writeFile(`${dir}/usage.ts`, USAGE)
    const tsc = app.makePath('node_modules', 'typescript', 'bin', 'tsc')
    const args = ['--noEmit', '--strict', '--module', 'nodenext', '--target', 'es2022']
    const result = await promisify(execFile)(process.execPath, [tsc, ...args, `${dir}/usage.ts`], {
      cwd: dir,
    }).then(
      () => ({ ok: true, output: '' }),
      (error: { stdout?: string }) => ({ ok: false, output: String(error.stdout) })
    )
    assert.isTrue(result.ok, result.output)
    assert.include(types, 'bookstore_Book: {')
    await rm(dir, { recursive: true, force: true })
  }).timeout(120_000)
})
