/**
 * Catalogue rows MA5 and MA6: multipart fields named like prototype paths are never merged
 * into objects (the upload reads only the `file` part and the `name` query parameter).
 */
import { test } from '@japa/runner'
import { FILES, auth, filesSetup, multipart, request } from '#tests/helpers/files'

let token = ''

test.group('Files: multipart field names cannot pollute prototypes (MA5, MA6)', (group) => {
  group.setup(async () => {
    token = await filesSetup()
  })

  for (const [row, names] of [
    ['MA5', ['__proto__.polluted', '__proto__[polluted]']],
    [
      'MA6',
      [
        'user.__proto__.polluted',
        'a.constructor.prototype.polluted',
        'constructor[prototype][polluted]',
      ],
    ],
  ] as const) {
    test(`${row}: ${names.join(', ')}`, async ({ assert }) => {
      const form = multipart([
        ...names.map((name) => ({ name, data: '1' })),
        { name: 'file', filename: 'a.txt', contentType: 'text/plain', data: 'hello' },
      ])
      const response = await request(FILES, {
        method: 'POST',
        headers: { ...auth(token), 'Content-Type': form.contentType },
        body: form.body,
      })
      assert.equal(response.status, 201)
      assert.equal((response.body as any).name, 'a.txt')
      assert.isUndefined(({} as any).polluted, 'Object.prototype is unchanged')
      assert.isUndefined((Object as any).polluted)
    })
  }
})
