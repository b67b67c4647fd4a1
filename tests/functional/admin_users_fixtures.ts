/**
 * Shared by the admin user specs (admin_users, admin_users_changes): a user to create, readers of
 * the stored user, its role assignments, its password hash and the audit trail, and a token of
 * the user with /rest/userInfo to see whether it still works.
 */
import db from '@adonisjs/lucid/services/db'
import hash from '@adonisjs/core/services/hash'
import User from '#models/user'
import { admin } from '#tests/helpers/admin'
import { accessToken, makeClient, sendJson } from '#tests/helpers/resource_server'

export const ALICE = {
  username: 'alice',
  password: 'Alice-passw0rd',
  firstName: 'Alice',
  lastName: 'Liddell',
  email: 'alice@wonder.land',
  locale: 'en',
  timeZone: 'Europe/London',
  resourceRoles: ['rest-minimal'],
}

export const auditCount = async () => Number((await db.from('mg_audit').count('* as n'))[0].n)
export const lastElements = async () => {
  const entry = await db.from('mg_audit').orderBy('id', 'desc').first()
  const rows = await db.from('mg_audit_elements').where('audit_id', entry.id)
  return { entry, elements: rows.map((e) => `${e.section}:${e.element}`) }
}
export const userRow = (username: string) => db.from('users').where('username', username).first()
export const roleCodes = async (table: string, username: string) =>
  (
    await db
      .from(table)
      .join('users', 'users.id', `${table}.user_id`)
      .where('users.username', username)
      .orderBy('role_code')
  ).map((r) => r.role_code)
export const verifies = async (username: string, password: string) =>
  hash.use('scrypt').verify((await userRow(username)).password, password)
export async function tokenOf(username: string) {
  const user = await User.findByOrFail('username', username)
  return (await accessToken(await makeClient({ resourceRoles: [] }), user)).token
}
export const userInfo = (token: string) => sendJson(token, 'GET', '/rest/userInfo')
export const create = (body: Record<string, unknown> = ALICE) =>
  admin('admin', 'POST', 'users', body)
