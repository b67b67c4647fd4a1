import { BaseCommand, args, flags } from '@adonisjs/core/ace'
import type { CommandOptions } from '@adonisjs/core/types/ace'
import { migrate } from '#start/bootstrap'
import { announceDatabase } from '#cli/database_note'
import db from '@adonisjs/lucid/services/db'
import {
  AccountError,
  createUserWithRoles,
  generatePassword,
  passwordProblem,
} from '#oauth/accounts'
import { BUILT_IN_RESOURCE_ROLES, type Assignment } from '#security/roles_store'

const codes = (text?: string) =>
  (text ?? '')
    .split(',')
    .map((c) => c.trim())
    .filter(Boolean)

/** Codes that name neither a built-in nor a stored role of their kind. */
async function unknownRoles(roles: Assignment): Promise<string[]> {
  const stored = async (table: string) =>
    new Set((await db.from(table).select('code')).map((r: { code: string }) => r.code))
  const resource = await stored('mg_resource_roles')
  const rowLevel = await stored('mg_row_level_roles')
  return [
    ...roles.resourceRoles.filter((c) => !BUILT_IN_RESOURCE_ROLES.includes(c) && !resource.has(c)),
    ...roles.rowLevelRoles.filter((c) => !rowLevel.has(c)),
  ]
}

const FLAG_OF: Record<string, string> = {
  firstName: '--first-name',
  lastName: '--last-name',
  timeZone: '--time-zone',
}

export default class UserCreate extends BaseCommand {
  static commandName = 'user:create'
  static description =
    'Create an application user. Without --password: asks for one (hidden) on a terminal, else generates one and prints it once'
  static options: CommandOptions = { startApp: true }

  @args.string({ description: 'User name (letters, digits, . _ @ + -)' })
  declare username: string

  @flags.string({ description: 'Password (at least 8 characters); prefer the hidden prompt' })
  declare password?: string

  @flags.string({ description: 'First name', flagName: 'first-name' })
  declare firstName?: string

  @flags.string({ description: 'Last name', flagName: 'last-name' })
  declare lastName?: string

  @flags.string({ description: 'E-mail address' })
  declare email?: string

  @flags.string({ description: 'Locale, e.g. en or de-CH' })
  declare locale?: string

  @flags.string({ description: 'Time zone, e.g. Europe/Berlin', flagName: 'time-zone' })
  declare timeZone?: string

  @flags.boolean({ description: 'Create the user deactivated (cannot sign in)' })
  declare inactive: boolean

  @flags.string({
    description: 'Comma-separated resource role codes (e.g. rest-minimal,order-clerk)',
    flagName: 'resource-roles',
  })
  declare resourceRoles?: string

  @flags.string({
    description: 'Comma-separated row-level role codes',
    flagName: 'row-level-roles',
  })
  declare rowLevelRoles?: string

  /** The password of the flag, the hidden prompt, or a generated one (then `generated`). */
  async #password(): Promise<{ password: string; generated: boolean }> {
    if (this.password !== undefined) return { password: this.password, generated: false }
    if (process.stdin.isTTY) {
      const typed = await this.prompt.secure('Password (empty: generate one)', {
        validate: (value) => value === '' || passwordProblem(value) || true,
      })
      if (typed) return { password: typed, generated: false }
    }
    return { password: generatePassword(), generated: true }
  }

  async run() {
    await migrate(this.app)
    await announceDatabase(this.app)
    const { password, generated } = await this.#password()
    try {
      const roles = {
        resourceRoles: codes(this.resourceRoles),
        rowLevelRoles: codes(this.rowLevelRoles),
      }
      const unknown = await unknownRoles(roles)
      if (unknown.length) {
        this.logger.error(`unknown role(s): ${unknown.join(', ')}`)
        this.exitCode = 1
        return
      }
      const user = await createUserWithRoles(
        {
          username: this.username,
          password,
          firstName: this.firstName,
          lastName: this.lastName,
          email: this.email,
          locale: this.locale,
          timeZone: this.timeZone,
          active: !this.inactive,
        },
        roles
      )
      this.logger.success(`created user '${user.username}'${user.active ? '' : ' (inactive)'}`)
      if (!roles.resourceRoles.length)
        this.logger.warning('the user has no resource role: it may not use the REST API yet')
      if (generated) {
        this.logger.warning('generated password, shown only now (only its hash is stored):')
        this.logger.log(`  ${password}`)
      }
    } catch (error) {
      if (!(error instanceof AccountError)) throw error
      for (const p of error.problems)
        this.logger.error(`${FLAG_OF[p.path] ?? p.path}: ${p.message}`)
      this.exitCode = 1
    }
  }
}
