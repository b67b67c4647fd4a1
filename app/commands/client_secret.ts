import { BaseCommand, args } from '@adonisjs/core/ace'
import type { CommandOptions } from '@adonisjs/core/types/ace'
import { migrate } from '#start/bootstrap'
import { announceDatabase } from '#cli/database_note'
import { ClientRegistrationError, rotateClientSecret } from '#oauth/clients'

export default class ClientSecret extends BaseCommand {
  static commandName = 'client:secret'
  static description =
    'Give a client a new generated secret, printed once; tokens issued with the old one stop at once'
  static options: CommandOptions = { startApp: true }

  @args.string({ description: 'Client id' })
  declare clientId: string

  async run() {
    await migrate(this.app)
    await announceDatabase(this.app)
    try {
      const secret = await rotateClientSecret(this.clientId)
      this.logger.success(`new secret of client '${this.clientId}'; its tokens were revoked`)
      this.logger.warning('client secret, shown only now (only its digest is stored):')
      this.logger.log(`  ${secret}`)
    } catch (error) {
      if (!(error instanceof ClientRegistrationError)) throw error
      for (const p of error.problems) this.logger.error(`${p.path}: ${p.message}`)
      this.exitCode = 1
    }
  }
}
