/**
 * `node ace` commands name the database they work on (issue 19, item 7), on standard error so
 * that a document on standard output stays intact.
 */
import { test } from '@japa/runner'
import { spawn } from 'node:child_process'
import { relative } from 'node:path'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import { resetDatabase } from '#tests/helpers/database'

function ace(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['ace.js', ...args], {
      cwd: app.makePath(),
      env: { ...process.env, LOG_LEVEL: 'warn' },
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (c) => (stdout += c))
    child.stderr.on('data', (c) => (stderr += c))
    child.on('exit', (code) => resolve({ code: code ?? -1, stdout, stderr }))
  })
}

test.group('ace commands name their database', (group) => {
  group.setup(async () => void (await resetDatabase()))

  test('app:export and user:password print it on standard error', async ({ assert }) => {
    const config = db.manager.get(db.primaryConnectionName)!.config as any
    const expected =
      db.connection().dialect.name === 'postgres'
        ? `database: pg ${config.connection.host}:${config.connection.port}/${config.connection.database}`
        : `database: sqlite ${relative(app.makePath(), config.connection.filename)}`
    const exported = await ace(['app:export'])
    assert.equal(exported.code, 0, exported.stderr)
    assert.include(exported.stderr, expected)
    assert.equal(JSON.parse(exported.stdout).formatVersion, 1)
    const password = await ace(['user:password', 'nobody', '--password', 'x'.repeat(10)])
    assert.include(password.stderr + password.stdout, expected)
  }).timeout(60000)
})
