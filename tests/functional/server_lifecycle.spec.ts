/**
 * Start-up failures and exits say why in one line (issue 19, item 5): a port in use and a
 * missing PostgreSQL database exit non-zero with one line and no stack; SIGTERM logs its
 * reason; `node ace` works in a clone that has no .env yet.
 */
import { test } from '@japa/runner'
import { spawn } from 'node:child_process'
import { createServer } from 'node:net'
import { existsSync } from 'node:fs'
import { mkdtemp, readFile, rm, symlink } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import app from '@adonisjs/core/services/app'
import { freePort, startServerProcess } from '#tests/helpers/server_process'

function run(args: string[], env: Record<string, string | undefined>, cwd = app.makePath()) {
  return new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn(process.execPath, args, { cwd, env: env as NodeJS.ProcessEnv })
    let output = ''
    child.stdout.on('data', (c) => (output += c))
    child.stderr.on('data', (c) => (output += c))
    child.on('exit', (code) => resolve({ code, output }))
  })
}

const serverEnv = (extra: Record<string, string>) => ({
  ...process.env,
  NODE_ENV: 'development',
  HOST: '127.0.0.1',
  MODELGATE_DEMO: 'false',
  LOG_LEVEL: 'warn',
  ...extra,
})

test.group('server start and exit', () => {
  test('a port in use: exit code 1 and one line naming the port', async ({ assert }) => {
    const port = await freePort()
    const blocker = createServer().listen(port, '127.0.0.1')
    try {
      const { code, output } = await run(['server.js'], serverEnv({ PORT: String(port) }))
      assert.equal(code, 1)
      assert.include(
        output,
        `modelgate: stopped: cannot start: port ${port} on 127.0.0.1 is already in use`
      )
      assert.notMatch(output, /\n\s+at /, 'no stack')
    } finally {
      blocker.close()
    }
  }).timeout(90000)

  test('a missing PostgreSQL database: one line with createdb', async ({ assert }) => {
    const { code, output } = await run(
      ['server.js'],
      serverEnv({
        PORT: String(await freePort()),
        DB_CONNECTION: 'pg',
        DB_DATABASE: 'mg_missing_db',
      })
    )
    assert.equal(code, 1)
    assert.equal(
      output.trim(),
      'modelgate: stopped: cannot start: the PostgreSQL database "mg_missing_db" does not exist: create it with `createdb mg_missing_db` (or set DB_DATABASE) (exit code 1)'
    )
  }).timeout(90000)

  test('SIGTERM: a graceful stop that says so', async ({ assert }) => {
    const { child } = await startServerProcess()
    let output = ''
    child.stderr!.on('data', (c) => (output += c))
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve))
    child.kill('SIGTERM')
    assert.equal(await exited, 0)
    assert.include(output, 'modelgate: stopped: SIGTERM received (exit code 0)')
  }).timeout(90000)

  test('node ace works in a clone without .env (it writes one)', async ({ assert }) => {
    const clone = await mkdtemp(join(tmpdir(), 'mg-clone-'))
    try {
      for (const entry of [
        'ace.js',
        'adonisrc.ts',
        'app',
        'bin',
        'config',
        'database',
        'node_modules',
        'package.json',
        'scripts',
        'start',
        'tsconfig.json',
        '.env.example',
      ])
        await symlink(app.makePath(entry), join(clone, entry))
      const env = { PATH: process.env.PATH, HOME: process.env.HOME }
      const { code, output } = await run(['ace.js', 'app:export'], env, clone)
      assert.equal(code, 0, output)
      assert.include(output, 'created .env from .env.example with a new APP_KEY')
      assert.match(await readFile(join(clone, '.env'), 'utf8'), /^APP_KEY=.{20,}$/m)
      assert.isTrue(existsSync(join(clone, 'tmp')))
    } finally {
      await rm(clone, { recursive: true, force: true })
    }
  }).timeout(90000)
})
