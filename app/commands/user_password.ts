import { BaseCommand, args, flags } from '@adonisjs/core/ace'
import type { CommandOptions } from '@adonisjs/core/types/ace'
import { migrate } from '#start/bootstrap'
import { announceDatabase } from '#cli/database_note'
import { AccountError, changePassword, generatePassword, passwordProblem } from '#oauth/accounts'

export default class UserPassword extends BaseCommand {
  static commandName = 'user:password'
  static description =
    "Set a user's password; the user's tokens stop at once. Without --password: asks (hidden) on a terminal, else generates one and prints it once"
  static options: CommandOptions = { startApp: true }

  @args.string({ description: 'User name' })
  declare username: string

  @flags.string({ description: 'New password (at least 8 characters); prefer the hidden prompt' })
  declare password?: string

  async run() {
    await migrate(this.app)
    await announceDatabase(this.app)
    let password = this.password
    if (password === undefined && process.stdin.isTTY) {
      password = await this.prompt.secure('New password (empty: generate one)', {
        validate: (value) => value === '' || passwordProblem(value) || true,
      })
    }
    const generated = !password
    if (!password) password = generatePassword()
    try {
      await changePassword(this.username, password)
      this.logger.success(`password of '${this.username}' changed; its tokens were revoked`)
      if (generated) {
        this.logger.warning('generated password, shown only now (only its hash is stored):')
        this.logger.log(`  ${password}`)
      }
    } catch (error) {
      if (!(error instanceof AccountError)) throw error
      for (const p of error.problems) this.logger.error(`${p.path}: ${p.message}`)
      this.exitCode = 1
    }
  }
}
