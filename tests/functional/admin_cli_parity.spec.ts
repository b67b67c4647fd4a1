/**
 * The CLI (`node ace app:import`) and the admin API go through the same orchestrator: the same
 * document gives the same changes, the same SQL and the same stored application.
 */
import { test } from '@japa/runner'
import { spawn } from 'node:child_process'
import { writeFile } from 'node:fs/promises'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import hash from '@adonisjs/core/services/hash'
import { resetDatabase } from '#tests/helpers/database'
import { admin, setupAdminActors } from '#tests/helpers/admin'
import { definitions } from '#definition/main'
import { engine } from '#tests/helpers/engine'

async function documentUnderTest() {
  return {
    formatVersion: 1,
    enums: [
      {
        name: 'par.Status',
        values: [
          { name: 'OPEN', id: 'O' },
          { name: 'DONE', id: 'D' },
        ],
      },
    ],
    entities: [
      {
        name: 'par_Project',
        traits: ['versioned'],
        attributes: [
          { name: 'title', type: 'string', length: 60, mandatory: true, unique: true },
          { name: 'status', type: 'enum', enum: 'par.Status' },
          {
            name: 'tasks',
            type: 'composition',
            cardinality: 'ONE_TO_MANY',
            target: 'par_Task',
            mappedBy: 'project',
          },
        ],
      },
      {
        name: 'par_Task',
        attributes: [
          { name: 'label', type: 'string' },
          {
            name: 'project',
            type: 'association',
            cardinality: 'MANY_TO_ONE',
            target: 'par_Project',
          },
        ],
        indexes: [{ attributes: ['label'] }],
      },
    ],
    fetchPlans: [
      {
        entity: 'par_Project',
        name: 'full',
        extends: '_base',
        properties: [{ name: 'tasks', fetchPlan: '_base' }],
      },
    ],
    resourceRoles: [
      {
        code: 'par-reader',
        childRoles: ['rest-minimal'],
        entityPolicies: [{ entity: 'par_Project', actions: ['read'] }],
      },
    ],
    users: [
      {
        username: 'par-user',
        passwordHash: await hash.use('scrypt').make('S3cret-passw0rd'),
        resourceRoles: ['par-reader'],
      },
    ],
    messages: { de: { par_Project: 'Projekt' } },
    settings: { 'svc.rest.max-bulk-size': 50 },
  }
}

/** Runs `node ace app:import <file>` on the test database; resolves with its output. */
function cliImport(file: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['ace.js', 'app:import', file], {
      cwd: app.makePath(),
      env: { ...process.env, LOG_LEVEL: 'warn' },
    })
    let output = ''
    child.stdout.on('data', (c) => (output += c))
    child.stderr.on('data', (c) => (output += c))
    child.on('exit', (code) => resolve({ code: code ?? -1, output }))
  })
}

/**
 * What a change left: the export and the SQL of the schema changelog (without the admin actors'
 * own fixtures: random client ids and users).
 */
async function outcome() {
  await (await engine()).refresh()
  const document: any = await definitions(await engine()).exportDocument()
  delete document.clients
  document.users = document.users.filter((u: any) => u.username === 'par-user')
  const sql = (await db.from('mg_schema_changelog').orderBy('id').select('sql')).map((r) => r.sql)
  return { document, sql }
}

test.group('admin API and CLI parity', (group) => {
  group.each.setup(async () => {
    await resetDatabase()
    await setupAdminActors()
  })

  test('the same document gives the same changes, SQL and stored application', async ({
    assert,
  }) => {
    const document = await documentUnderTest()
    const file = app.makePath('tmp', `parity-${process.pid}.json`)
    await writeFile(file, JSON.stringify(document))

    const cli = await cliImport(file)
    assert.equal(cli.code, 0, cli.output)
    const viaCli = await outcome()
    const cliChanges = [...cli.output.matchAll(/change: (.+)/g)].map((m) => m[1].trim())

    await resetDatabase()
    await setupAdminActors()
    const api = await admin('admin', 'POST', 'definition/apply', document)
    assert.equal(api.status, 200, api.text)
    const viaApi = await outcome()

    assert.deepEqual(viaApi.document, viaCli.document)
    assert.deepEqual(viaApi.sql, viaCli.sql)
    assert.isAbove(viaApi.sql.length, 0)
    assert.deepEqual(api.body.changes, cliChanges)
    // The CLI's audit entry names the command, the API's the admin.
    const author = async () => (await db.from('mg_audit').orderBy('id', 'desc').first()).author
    assert.equal(await author(), 'root')
  })
})
