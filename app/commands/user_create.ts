import { BaseCommand, args, flags } from '@adonisjs/core/ace'
import type { CommandOptions } from '@adonisjs/core/types/ace'
import { migrate } from '#start/bootstrap'
import { AccountError, createUser, generatePassword, passwordProblem } from '#oauth/accounts'

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
    const { password, generated } = await this.#password()
    try {
      const user = await createUser({
        username: this.username,
        password,
        firstName: this.firstName,
        lastName: this.lastName,
        email: this.email,
        locale: this.locale,
        timeZone: this.timeZone,
        active: !this.inactive,
      })
      this.logger.success(`created user '${user.username}'${user.active ? '' : ' (inactive)'}`)
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
