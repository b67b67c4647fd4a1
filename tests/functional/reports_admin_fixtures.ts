/**
 * Shared setup of the reports admin API tests: the reports fixture (security fixture + report
 * role + reports) plus the admin actors of tests/helpers/admin.ts (`anonymous` already exists
 * in the security fixture, so the actors are made here), and a small report with a CSV template
 * file.
 */
import db from '@adonisjs/lucid/services/db'
import User from '#models/user'
import { adminTokens } from '#tests/helpers/admin'
import { baseUrl } from '#tests/helpers/oauth'
import { resetDatabase } from '#tests/helpers/database'
import { accessToken, makeClient } from '#tests/helpers/resource_server'
import { setupSecurityFixture } from '#tests/helpers/security'
import { CUSTOMER, setupReportsFixture } from './reports_fixtures.js'

export const NEW_ID = '6f1c3c1e-0000-4000-8000-0000000000b1'
export const CSV_TEMPLATE = Buffer.from('name;region\n${Customers.name};${Customers.region}\n')

/** A report of EU/US customers with a CSV template given as `base64:...`. */
export const newReport = (extra: Record<string, unknown> = {}) => ({
  id: NEW_ID,
  name: 'New customers',
  code: 'NEW',
  inputParameters: [{ name: 'Region', alias: 'region', type: 'TEXT', required: true }],
  bands: [
    {
      name: 'Customers',
      datasets: [
        {
          type: 'query',
          entity: CUSTOMER,
          filter: { conditions: [{ property: 'region', operator: '=', value: ':region' }] },
          sort: 'name',
          fields: ['name', 'region'],
        },
      ],
      children: [],
    },
  ],
  templates: [
    {
      code: 'DEFAULT',
      outputType: 'CSV',
      fileName: 'customers.csv',
      default: true,
      file: `base64:${CSV_TEMPLATE.toString('base64')}`,
    },
    { code: 'json', outputType: 'JSON' },
  ],
  ...extra,
})

/** Reset, fixtures, and the admin actors (root: system-admin + system-full-access). */
export async function setupReportsAdmin() {
  await resetDatabase()
  await setupSecurityFixture()
  await setupReportsFixture()
  adminTokens.clear()
  const web = await makeClient({ resourceRoles: [] })
  const root = await User.create({ username: 'root', password: 'S3cret-passw0rd', active: true })
  await db.table('mg_user_resource_roles').multiInsert([
    { user_id: root.id, role_code: 'system-full-access' },
    { user_id: root.id, role_code: 'system-admin' },
  ])
  adminTokens.set('admin', (await accessToken(web, root)).token)
  const plain = await User.create({ username: 'plain', password: 'S3cret-passw0rd', active: true })
  await db.table('mg_user_resource_roles').insert({ user_id: plain.id, role_code: 'rest-minimal' })
  adminTokens.set('plain', (await accessToken(web, plain)).token)
  const full = await makeClient({ resourceRoles: ['system-full-access'] })
  adminTokens.set('fullAccess', (await accessToken(full)).token)
}

/** Rows of the report tables (a refused change must leave them as they were). */
export async function reportRows() {
  const parts = []
  parts.push(await db.from('mg_reports').select('*').orderBy('id'))
  parts.push(await db.from('mg_report_templates').select('*').orderBy(['report_id', 'position']))
  parts.push(await db.from('mg_report_groups').select('*').orderBy('id'))
  return JSON.stringify(parts, (_k, v) => (v instanceof Date ? v.toISOString() : v))
}

/** Waits until the history holds `n` runs (a streamed document's run is recorded after it ends). */
export async function executionsRecorded(n: number) {
  for (let i = 0; i < 60; i++) {
    const row: any = await db.from('mg_report_executions').count('* as n').first()
    if (Number(row.n) >= n) return
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`the history never held ${n} runs`)
}

/** The admin API path of the report newReport() creates. */
export const P = `reports/${NEW_ID}`
export const templateRow = (code: string) =>
  db.from('mg_report_templates').where({ report_id: NEW_ID, code }).first()

/** The raw bytes of a download as the admin. */
export async function download(path: string) {
  const raw = await fetch(`${baseUrl()}/admin/api/${path}`, {
    headers: { Authorization: `Bearer ${adminTokens.get('admin')}` },
  })
  return { status: raw.status, headers: raw.headers, bytes: Buffer.from(await raw.arrayBuffer()) }
}

/** A raw upload (octet-stream) as the admin. */
export async function upload(path: string, bytes: Buffer) {
  const response = await fetch(`${baseUrl()}/admin/api/${path}`, {
    method: 'PUT',
    headers: {
      'Authorization': `Bearer ${adminTokens.get('admin')}`,
      'Content-Type': 'application/octet-stream',
    },
    body: new Uint8Array(bytes),
  })
  const text = await response.text()
  return { status: response.status, body: text ? JSON.parse(text) : null }
}
