import { test } from '@japa/runner'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  PROPERTIES,
  coerce,
  envNameOf,
  findProperty,
  propertyNamesForEnv,
} from '#settings/properties'
import { PropertyResolver } from '#settings/property_resolver'

const def = (name: string) => findProperty(name)!

test.group('properties registry', () => {
  test('every registered name maps to an env name and back', ({ assert }) => {
    for (const p of PROPERTIES.filter((x) => !x.name.includes('<'))) {
      assert.include(propertyNamesForEnv(envNameOf(p.name)), p.name)
    }
  })

  test('envNameOf', ({ assert }) => {
    assert.equal(envNameOf('svc.rest.anonymous-url-patterns'), 'SVC_REST_ANONYMOUS_URL_PATTERNS')
    assert.equal(
      envNameOf('svc.core.entitySerializationTokenRequired'),
      'SVC_CORE_ENTITYSERIALIZATIONTOKENREQUIRED'
    )
  })

  test('propertyNamesForEnv resolves exact names and client patterns', ({ assert }) => {
    assert.deepEqual(propertyNamesForEnv('SVC_REST_ANONYMOUS_URL_PATTERNS'), [
      'svc.rest.anonymous-url-patterns',
    ])
    assert.deepEqual(propertyNamesForEnv('SVC_AUTHSERVER_CLIENT_ORDERS_CLIENT_ID'), [
      'svc.authserver.client.orders.client-id',
    ])
    assert.deepEqual(propertyNamesForEnv('SVC_AUTHSERVER_CLIENT_ORDERS_CLIENT_SECRET'), [
      'svc.authserver.client.orders.client-secret',
    ])
    assert.deepEqual(propertyNamesForEnv('SVC_AUTHSERVER_CLIENT_WEB_ACCESS_TOKEN_TIME_TO_LIVE'), [
      'svc.authserver.client.web.access-token-time-to-live',
    ])
    assert.deepEqual(
      propertyNamesForEnv('SVC_AUTHSERVER_CLIENT__CLIENT_ID'),
      [],
      'a client name is required'
    )
    assert.deepEqual(propertyNamesForEnv('SVC_UNKNOWN_THING'), [])
    assert.deepEqual(propertyNamesForEnv('PATH'), [])
  })

  test('findProperty matches patterns but not arbitrary names', ({ assert }) => {
    assert.equal(
      findProperty('svc.authserver.client.orders.client-id')?.name,
      'svc.authserver.client.<name>.client-id'
    )
    assert.isUndefined(findProperty('svc.authserver.client.a.b.client-id'))
    assert.isUndefined(findProperty('svc.rest.nope'))
    assert.isUndefined(findProperty('svc.rest.anonymous-url-patternsX'))
  })

  test('coerce booleans', ({ assert }) => {
    const p = def('svc.core.entitySerializationTokenRequired')
    assert.isTrue(coerce(p, true))
    assert.isFalse(coerce(p, 'false'))
    for (const bad of ['yes', 1, null, [], '']) assert.throws(() => coerce(p, bad), /true or false/)
  })

  test('coerce integers', ({ assert }) => {
    const p = def('svc.rest.default-max-fetch-size')
    assert.equal(coerce(p, 500), 500)
    assert.equal(coerce(p, '500'), 500)
    for (const bad of ['abc', 1.5, '1.5', '', '  ', true, false, null, [], [7]]) {
      assert.throws(() => coerce(p, bad), /integer/, `rejects ${JSON.stringify(bad)}`)
    }
  })

  test('coerce lists', ({ assert }) => {
    const p = def('svc.rest.anonymous-url-patterns')
    assert.deepEqual(coerce(p, '/a/*, /b/** ,,'), ['/a/*', '/b/**'])
    assert.deepEqual(coerce(p, [' /a ', '/b']), ['/a', '/b'])
    assert.deepEqual(coerce(p, ''), [])
    for (const bad of [5, true, [1], { a: 1 }])
      assert.throws(() => coerce(p, bad), /list of strings/)
  })

  test('coerce strings', ({ assert }) => {
    const p = def('svc.rest.services-config')
    assert.equal(coerce(p, 'x.xml'), 'x.xml')
    for (const bad of [null, [], { a: 1 }]) assert.throws(() => coerce(p, bad), /must be a string/)
  })
})

test.group('PropertyResolver (static layers)', (group) => {
  let dir: string
  group.each.setup(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mg-props-'))
    return () => rm(dir, { recursive: true, force: true })
  })

  test('precedence: default < file < env', async ({ assert }) => {
    const file = join(dir, 'application.properties')
    await writeFile(
      file,
      [
        'svc.rest.default-max-fetch-size = 200',
        'svc.core.available-locales=en,de',
        'svc.authserver.client.orders.client-id=from-file',
        '',
      ].join('\n')
    )
    const resolver = new PropertyResolver()
    await resolver.loadStatic(file, {
      SVC_REST_DEFAULT_MAX_FETCH_SIZE: '300',
      SVC_AUTHSERVER_CLIENT_ORDERS_CLIENT_SECRET: 's3cret',
      OTHER_VARIABLE: 'ignored',
    })
    assert.equal(resolver.get('svc.rest.default-max-fetch-size'), 300)
    assert.equal(resolver.source('svc.rest.default-max-fetch-size'), 'env')
    assert.deepEqual(resolver.get('svc.core.available-locales'), ['en', 'de'])
    assert.equal(resolver.source('svc.core.available-locales'), 'file')
    assert.deepEqual(resolver.get('svc.rest.inline-enabled-file-extensions'), [
      'jpg',
      'jpeg',
      'png',
      'gif',
      'pdf',
      'txt',
    ])
    assert.equal(resolver.source('svc.rest.inline-enabled-file-extensions'), 'default')
    assert.equal(resolver.get('svc.authserver.client.orders.client-id'), 'from-file')
    assert.equal(resolver.get('svc.authserver.client.orders.client-secret'), 's3cret')
    assert.deepEqual(resolver.names('svc.authserver.client.'), [
      'svc.authserver.client.orders.client-id',
      'svc.authserver.client.orders.client-secret',
    ])
    assert.throws(() => resolver.get('svc.nope'), /unknown property/)
  })

  test('a missing properties file is fine; an unknown name in it is not', async ({ assert }) => {
    const resolver = new PropertyResolver()
    await resolver.loadStatic(join(dir, 'missing.properties'), {})
    assert.equal(resolver.get('svc.rest.default-max-fetch-size'), 10000)
    const file = join(dir, 'bad.properties')
    await writeFile(file, 'svc.rest.typo = 1\n')
    await assert.rejects(() => resolver.loadStatic(file, {}), /unknown property 'svc.rest.typo'/)
  })

  test('an invalid environment value names the variable', async ({ assert }) => {
    const resolver = new PropertyResolver()
    await assert.rejects(
      () => resolver.loadStatic(null, { SVC_REST_DEFAULT_MAX_FETCH_SIZE: 'lots' }),
      /SVC_REST_DEFAULT_MAX_FETCH_SIZE/
    )
  })

  test('loading again replaces the static layers', async ({ assert }) => {
    const resolver = new PropertyResolver()
    await resolver.loadStatic(null, { SVC_REST_DEFAULT_MAX_FETCH_SIZE: '1' })
    await resolver.loadStatic(null, {})
    assert.equal(resolver.get('svc.rest.default-max-fetch-size'), 10000)
  })
})
