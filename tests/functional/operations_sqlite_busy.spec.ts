/**
 * Several processes on one SQLite file (README "All cores: workers"): a write outside the
 * entity API (here an access token issued by /oauth2/token) that finds the file locked by
 * another process for longer than busy_timeout (5 s) is a 503 with the OAuth error shape
 * (`temporarily_unavailable`, RFC 6749), not a 500; nothing is stored, and the same request
 * succeeds once the lock is gone.
 */
import { test } from '@japa/runner'
import { createRequire } from 'node:module'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import { createClient } from '#tests/helpers/oauth'
import { dialect } from '#tests/helpers/database'

const base = () => `http://127.0.0.1:${process.env.PORT}`

test.group('Operations: SQLite file locked by another process', () => {
  test('a token request waits busy_timeout, then 503 temporarily_unavailable; fine once unlocked')
    .skip(dialect() !== 'sqlite', 'SQLite only: PostgreSQL has no file lock')
    .run(async ({ assert }) => {
      const { client, secret } = await createClient()
      const ask = () =>
        fetch(`${base()}/oauth2/token`, {
          method: 'POST',
          headers: {
            'authorization': `Basic ${Buffer.from(`${client.clientId}:${secret}`).toString('base64')}`,
            'content-type': 'application/x-www-form-urlencoded',
          },
          body: 'grant_type=client_credentials',
        })
      const tokens = async () => Number((await db.from('oauth_tokens').count('* as n'))[0].n)
      const before = await tokens()
      // Another writer (a worker of the same server, a `node ace` command) holds the write lock.
      const Database = createRequire(import.meta.url)('better-sqlite3')
      const other = new Database(app.makePath(process.env.SQLITE_FILE ?? 'tmp/test.sqlite3'))
      other.exec('BEGIN IMMEDIATE')
      const started = Date.now()
      let response: Response
      try {
        response = await ask()
      } finally {
        other.exec('ROLLBACK')
        other.close()
      }
      const body = await response.json()
      assert.equal(response.status, 503, JSON.stringify(body))
      assert.isAtLeast(Date.now() - started, 4900, 'it waited for the lock first')
      assert.equal(body.error, 'temporarily_unavailable')
      assert.isString(body.error_description)
      assert.equal(response.headers.get('retry-after'), '1')
      assert.equal(await tokens(), before, 'nothing stored')
      const again = await ask()
      assert.equal(again.status, 200)
    })
})
