/**
 * Files API policies (spec 4.5 rule 3, reference 7.1/7.3) and downloads through an entity
 * (issue 7, catalogue FL9). The callers' roles are set up the real way: client resource roles
 * (built-in `rest-minimal`, roles imported in a definition document) and row-level roles. These
 * assertions need the security enforcement of issue 5 (`permissionsFor`): they fail while it
 * allows everything.
 */
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { applyDoc } from '#tests/helpers/engine'
import { accessToken, makeClient } from '#tests/helpers/resource_server'
import {
  download,
  filesSetup,
  request,
  snapshot,
  tokenWithRoles,
  uploadPart,
  uploadRaw,
  auth,
} from '#tests/helpers/files'

const UPLOAD_FORBIDDEN = { error: 'File upload failed', details: 'File upload is not permitted' }
const DOWNLOAD_FORBIDDEN = {
  error: 'File download failed',
  details: 'File download is not permitted',
}

const roles = {
  resourceRoles: [
    {
      code: 'file-uploader',
      childRoles: ['rest-minimal'],
      specificPolicies: ['rest.fileUpload.enabled'],
    },
    {
      code: 'file-downloader',
      childRoles: ['rest-minimal'],
      specificPolicies: ['rest.fileDownload.enabled'],
    },
    {
      code: 'author-reader',
      childRoles: ['rest-minimal'],
      entityPolicies: [{ entity: 'bookstore_Author', actions: ['read'] }],
      attributePolicies: [{ entity: 'bookstore_Author', attributes: ['*'], action: 'VIEW' }],
    },
  ],
  rowLevelRoles: [
    {
      code: 'visible-authors',
      policies: [
        {
          entity: 'bookstore_Author',
          type: 'filter',
          actions: ['read'],
          filter: { conditions: [{ property: 'lastName', operator: '=', value: 'Visible' }] },
        },
      ],
    },
  ],
}

let admin = ''
let minimal = ''
let stored = ''

test.group('Files API policies', (group) => {
  group.setup(async () => {
    admin = await filesSetup()
    await applyDoc(roles)
    minimal = await tokenWithRoles(['rest-minimal'])
    stored = (await uploadRaw(admin, 'stored bytes', { name: 'stored.txt' })).body.fileRef
  })

  test('rest-minimal: upload 403 in both modes, nothing stored', async ({ assert }) => {
    const before = await snapshot()
    const raw = await uploadRaw(minimal, 'x', { name: 'a.txt' })
    assert.equal(raw.status, 403, raw.text)
    assert.deepEqual(raw.body, UPLOAD_FORBIDDEN)
    const part = await uploadPart(minimal, 'x', 'a.txt')
    assert.equal(part.status, 403, part.text)
    assert.deepEqual(part.body, UPLOAD_FORBIDDEN)
    assert.deepEqual(await snapshot(), before)
  })

  test('rest-minimal: download 403, no bytes', async ({ assert }) => {
    const response = await download(minimal, stored)
    assert.equal(response.status, 403)
    assert.deepEqual(response.body, DOWNLOAD_FORBIDDEN)
    assert.notInclude(response.text, 'stored bytes')
  })

  test('rest.fileUpload.enabled uploads but does not download', async ({ assert }) => {
    const uploader = await tokenWithRoles(['file-uploader'])
    const upload = await uploadRaw(uploader, 'mine', { name: 'mine.txt' })
    assert.equal(upload.status, 201, upload.text)
    const back = await download(uploader, upload.body.fileRef)
    assert.equal(back.status, 403)
    assert.notInclude(back.text, 'mine')
  })

  test('rest.fileDownload.enabled downloads but does not upload', async ({ assert }) => {
    const downloader = await tokenWithRoles(['file-downloader'])
    const back = await download(downloader, stored)
    assert.equal(back.status, 200)
    assert.equal(back.text, 'stored bytes')
    const before = await snapshot()
    const upload = await uploadRaw(downloader, 'x', { name: 'x.txt' })
    assert.equal(upload.status, 403)
    assert.deepEqual(await snapshot(), before)
  })
})

test.group('Files API: downloads through an entity (FL9)', (group) => {
  const attached: Record<string, string> = {}

  group.setup(async () => {
    admin = await filesSetup()
    await applyDoc(roles)
    minimal = await tokenWithRoles(['rest-minimal'])
    for (const lastName of ['Visible', 'Hidden']) {
      const ref = (await uploadRaw(admin, `photo of ${lastName}`, { name: `${lastName}.png` })).body
        .fileRef
      const created = await request('/rest/entities/bookstore_Author', {
        method: 'POST',
        headers: { ...auth(admin), 'Content-Type': 'application/json' },
        body: JSON.stringify({ lastName, photo: ref }),
      })
      if (created.status !== 201) throw new Error(created.text)
      attached[lastName] = ref
    }
  })

  test('a caller who can read the row downloads its file without the policy', async ({
    assert,
  }) => {
    const reader = await tokenWithRoles(['author-reader'])
    const response = await download(reader, attached.Visible)
    assert.equal(response.status, 200, response.text)
    assert.equal(response.text, 'photo of Visible')
  })

  test('FL9: a caller who cannot read the entity gets 403 and no bytes', async ({ assert }) => {
    const before = await snapshot()
    const response = await download(minimal, attached.Visible)
    assert.equal(response.status, 403)
    assert.deepEqual(response.body, DOWNLOAD_FORBIDDEN)
    assert.notInclude(response.text, 'photo of')
    assert.deepEqual(await snapshot(), before)
  })

  test('FL9: a row hidden by a row-level role does not open its file', async ({ assert }) => {
    const client = await makeClient({
      resourceRoles: ['author-reader'],
      rowLevelRoles: ['visible-authors'],
    })
    const { token } = await accessToken(client)
    const hidden = await download(token, attached.Hidden)
    assert.equal(hidden.status, 403)
    assert.notInclude(hidden.text, 'photo of')
    const visible = await download(token, attached.Visible)
    assert.equal(visible.status, 200)
    assert.equal(visible.text, 'photo of Visible')
  })

  test('FL9: the reference must match exactly (another name is another ref)', async ({
    assert,
  }) => {
    const reader = await tokenWithRoles(['author-reader'])
    const renamed = attached.Visible.replace(/\?name=.*$/, '?name=other.png')
    const response = await download(reader, renamed)
    assert.equal(response.status, 403)
    assert.notInclude(response.text, 'photo of')
  })

  test('a file referenced by no row is not opened by reading rights', async ({ assert }) => {
    const loose = (await uploadRaw(admin, 'loose', { name: 'loose.png' })).body.fileRef
    const reader = await tokenWithRoles(['author-reader'])
    const response = await download(reader, loose)
    assert.equal(response.status, 403)
    assert.equal(
      await db
        .from('bookstore_author')
        .where('photo', loose)
        .count('* as n')
        .then((r) => Number(r[0].n)),
      0
    )
  })
})
