/**
 * `_instanceName` in the request locale (reference 1, "Locale"): enum values in an instance-name
 * pattern are written with their caption in the locale the request resolves to.
 */
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { resetDatabase } from '#tests/helpers/database'
import { importDoc } from '#tests/helpers/engine'
import { accessToken, makeClient } from '#tests/helpers/resource_server'
import { baseUrl } from '#tests/helpers/oauth'

test.group('Entities: _instanceName in the request locale', (group) => {
  group.setup(async () => {
    await resetDatabase()
    const result = await importDoc({
      enums: [
        {
          name: 'loc.Status',
          values: [{ name: 'OPEN', id: 'O', caption: { en: 'Open', de: 'Offen' } }],
        },
      ],
      entities: [
        {
          name: 'loc_Ticket',
          instanceName: '{title} [{status}]',
          attributes: [
            { name: 'title', type: 'string', length: 20 },
            { name: 'status', type: 'enum', enum: 'loc.Status' },
          ],
        },
      ],
      settings: { 'svc.core.available-locales': 'en,de' },
    })
    if (result.status !== 'applied') throw new Error(JSON.stringify(result))
    await db
      .table('loc_ticket')
      .insert({ id: '00000000-0000-4000-8000-000000000001', title: 'T', status: 'O' })
    return async () => void (await importDoc({ settings: { 'svc.core.available-locales': null } }))
  })

  test('enum captions follow Accept-Language', async ({ assert }) => {
    const { token } = await accessToken(await makeClient())
    const get = async (language: string) => {
      const response = await fetch(`${baseUrl()}/rest/entities/loc_Ticket`, {
        headers: { 'Authorization': `Bearer ${token}`, 'Accept-Language': language },
      })
      return ((await response.json()) as { _instanceName: string }[])[0]._instanceName
    }
    assert.equal(await get('de-DE,de;q=0.9'), 'T [Offen]')
    assert.equal(await get('en'), 'T [Open]')
  })
})
