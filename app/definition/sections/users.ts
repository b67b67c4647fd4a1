/**
 * `users` (app/oauth/user_definitions.ts): accounts and their role assignments, checked against
 * the role codes the change leaves. Passwords are stored as scrypt hashes; users are never
 * pruned.
 */
import vine from '@vinejs/vine'
import { applyUsers, exportUsers, planUsers } from '#oauth/user_definitions'
import type { DefinitionSection } from '../section.js'
import { arrayOf, keysOf } from '../shape.js'

const strings = () => vine.array(vine.string())
const optionalText = () => vine.string().nullable().optional()
/** Field rules (username, e-mail, locale, time zone, password) are in app/oauth/accounts. */
const user = vine.object({
  username: vine.string().trim().minLength(1),
  password: vine.string().optional(),
  passwordHash: vine.string().optional(),
  firstName: optionalText(),
  lastName: optionalText(),
  email: optionalText(),
  locale: optionalText(),
  timeZone: optionalText(),
  active: vine.boolean({ strict: true }).optional(),
  resourceRoles: strings().optional(),
  rowLevelRoles: strings().optional(),
})

export const usersSection: DefinitionSection = {
  name: 'users',
  keys: {
    users: { schema: vine.array(user), shape: arrayOf(keysOf(user)), element: (u) => u.username },
  },

  async plan(ctx) {
    const plan = await planUsers(ctx.trx, ctx.document.users, ctx.roleCodes!)
    return {
      problems: plan.problems,
      changes: plan.changes,
      apply: async (trx) => ({ changed: await applyUsers(trx, plan) }),
    }
  },

  async export(client) {
    // Password hashes, never a password.
    const users = await exportUsers(client)
    return users.length ? { users } : {}
  },
}
