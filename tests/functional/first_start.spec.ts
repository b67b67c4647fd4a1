/**
 * The first hour (issue 19, item 9): a first start on an empty database imports the demo model
 * with sample rows and a read-only demo client, prints the client's secret once with the first
 * two requests to make, and those requests, run as printed, return data.
 */
import { test } from '@japa/runner'
import { spawn, execFile } from 'node:child_process'
import { rm } from 'node:fs/promises'
import { promisify } from 'node:util'
import app from '@adonisjs/core/services/app'
import { freePort } from '#tests/helpers/server_process'

const exec = promisify(execFile)

test.group('first start', () => {
  test('sample rows, a demo client and the printed curl commands that work', async ({ assert }) => {
    const port = await freePort()
    const file = `tmp/first-start-${process.pid}.sqlite3`
    const child = spawn(process.execPath, ['server.js'], {
      cwd: app.makePath(),
      env: {
        ...process.env,
        NODE_ENV: 'development',
        PORT: String(port),
        HOST: '127.0.0.1',
        DB_CONNECTION: 'sqlite',
        SQLITE_FILE: file,
        MODELGATE_DEMO: 'true',
        MODELGATE_STORAGE_DIR: `tmp/first-start-storage-${process.pid}`,
        LOG_LEVEL: 'info',
      },
    })
    let output = ''
    child.stdout.on('data', (c) => (output += c))
    child.stderr.on('data', (c) => (output += c))
    try {
      for (let i = 0; i < 600 && !output.includes('started HTTP server'); i++) {
        if (child.exitCode !== null) break
        await new Promise((r) => setTimeout(r, 100))
      }
      assert.include(output, 'started HTTP server', output.slice(-2000))
      assert.match(output, /demo application imported \(model version \d+, \d{3} sample rows\)/)
      const commands = [...output.matchAll(/^\s+(curl .+)$/gm)].map((m) => m[1])
      assert.lengthOf(commands, 2, output)
      // The commands as printed (the README's Quick start shows the same two).
      const token = JSON.parse((await exec('sh', ['-c', commands[0]])).stdout).access_token
      assert.isString(token)
      const books = JSON.parse(
        (await exec('sh', ['-c', commands[1].replace('<access_token>', token)])).stdout
      )
      assert.isAtLeast(books.length, 20)
      assert.equal(books[0]._entityName, 'bookstore_Book')
      assert.property(books[0], 'publisher')
      // Files too: the first books have covers, downloadable with the demo token.
      const download = await fetch(
        `http://127.0.0.1:${port}/rest/files?fileRef=${encodeURIComponent(books[0].cover)}`,
        { headers: { Authorization: `Bearer ${token}` } }
      )
      assert.equal(download.status, 200)
      assert.include(await download.text(), '<svg')
    } finally {
      child.kill('SIGTERM')
      await new Promise((r) => child.once('exit', r))
      await rm(app.makePath(file), { force: true })
      for (const suffix of ['-wal', '-shm']) await rm(app.makePath(file + suffix), { force: true })
      await rm(app.makePath(`tmp/first-start-storage-${process.pid}`), {
        recursive: true,
        force: true,
      })
    }
  }).timeout(120000)
})
