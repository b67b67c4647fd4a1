/**
 * Shared by the admin role specs (admin_roles, admin_roles_changes): a small entity, a resource
 * role and a row-level role over it, a user holding given roles, and readers of the stored roles,
 * their assignments and the audit trail.
 */
import db from '@adonisjs/lucid/services/db'
import User from '#models/user'
import { admin } from '#tests/helpers/admin'

export const NOTE = {
  name: 'adm_Note',
  attributes: [
    { name: 'title', type: 'string', length: 80, mandatory: true },
    { name: 'body', type: 'text' },
  ],
}
export const READER = {
  code: 'note-reader',
  name: 'Note reader',
  childRoles: ['rest-minimal'],
  entityPolicies: [{ entity: 'adm_Note', actions: ['read'] }],
  attributePolicies: [{ entity: 'adm_Note', attributes: ['*'], action: 'VIEW' }],
}
export const OWN = {
  code: 'titled',
  policies: [
    {
      entity: 'adm_Note',
      type: 'filter',
      actions: ['read'],
      filter: { conditions: [{ property: 'title', operator: '=', value: 'mine' }] },
    },
  ],
}

export async function withNote() {
  const r = await admin('admin', 'POST', 'definition/apply', { formatVersion: 1, entities: [NOTE] })
  if (r.status !== 200) throw new Error(r.text)
}
export const auditCount = async () => Number((await db.from('mg_audit').count('* as n'))[0].n)
export const lastAudit = async () => {
  const entry = await db.from('mg_audit').orderBy('id', 'desc').first()
  const elements = await db.from('mg_audit_elements').where('audit_id', entry.id)
  return { entry, elements: elements.map((e) => `${e.section}:${e.element}`) }
}
export const roleRow = (table: string, code: string) => db.from(table).where('code', code).first()
export const assigned = (table: string, code: string) =>
  db.from(table).where('role_code', code).select('user_id')
export async function userWithRoles(username: string, resource: string[], rowLevel: string[] = []) {
  const user = await User.create({ username, password: 'S3cret-passw0rd', active: true })
  for (const code of resource)
    await db.table('mg_user_resource_roles').insert({ user_id: user.id, role_code: code })
  for (const code of rowLevel)
    await db.table('mg_user_row_level_roles').insert({ user_id: user.id, role_code: code })
  return user
}
