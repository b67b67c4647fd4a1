import { BaseCommand, args, flags } from '@adonisjs/core/ace'
import type { CommandOptions } from '@adonisjs/core/types/ace'
import { migrate } from '#start/bootstrap'
import { announceDatabase } from '#cli/database_note'
import { ClientRegistrationError, createClient } from '#oauth/clients'

const list = (value: string | undefined) =>
  value === undefined
    ? undefined
    : value
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean)

/** `grantTypes[1]` -> `--grant-types` */
const flagOf = (path: string) =>
  path === 'clientId'
    ? 'clientId'
    : path === 'clientSecret'
      ? '--secret'
      : '--' + path.replace(/\[\d+\]$/, '').replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)

export default class ClientCreate extends BaseCommand {
  static commandName = 'client:create'
  static description =
    'Register an OAuth client. A confidential client gets a generated secret, printed once (only its digest is stored)'
  static options: CommandOptions = { startApp: true }

  @args.string({ description: 'Client id (letters, digits, . _ ~ @ -)' })
  declare clientId: string

  @flags.string({
    description:
      'Comma-separated: client_secret_basic (default), client_secret_post, or none (public client)',
    flagName: 'authentication-methods',
  })
  declare authenticationMethods?: string

  @flags.string({
    description:
      'Comma-separated: client_credentials (default), authorization_code, refresh_token, password (legacy, opt-in)',
    flagName: 'grant-types',
  })
  declare grantTypes?: string

  @flags.string({
    description: 'Comma-separated exact redirect URIs (required with authorization_code)',
    flagName: 'redirect-uris',
  })
  declare redirectUris?: string

  @flags.boolean({
    description: 'Require PKCE (default; always on for public clients)',
    flagName: 'require-proof-key',
    default: true,
    showNegatedVariantInHelp: true,
  })
  declare requireProofKey: boolean

  @flags.string({
    description: 'reference (opaque, default) or self-contained (signed JWT)',
    flagName: 'access-token-format',
  })
  declare accessTokenFormat?: string

  @flags.string({
    description: 'Access token lifetime, e.g. 5m (default), 1h',
    flagName: 'access-token-time-to-live',
  })
  declare accessTokenTimeToLive?: string

  @flags.string({
    description: 'Refresh token lifetime, e.g. 24h (default)',
    flagName: 'refresh-token-time-to-live',
  })
  declare refreshTokenTimeToLive?: string

  @flags.string({ description: 'Comma-separated resource role codes', flagName: 'resource-roles' })
  declare resourceRoles?: string

  @flags.string({
    description: 'Comma-separated row-level role codes',
    flagName: 'row-level-roles',
  })
  declare rowLevelRoles?: string

  @flags.string({
    description: 'Use this secret (at least 16 characters) instead of a generated one',
  })
  declare secret?: string

  async run() {
    await migrate(this.app)
    await announceDatabase(this.app)
    try {
      const { client, generatedSecret } = await createClient({
        clientId: this.clientId,
        authenticationMethods: list(this.authenticationMethods),
        grantTypes: list(this.grantTypes),
        redirectUris: list(this.redirectUris),
        requireProofKey: this.requireProofKey,
        accessTokenFormat: this.accessTokenFormat,
        accessTokenTimeToLive: this.accessTokenTimeToLive,
        refreshTokenTimeToLive: this.refreshTokenTimeToLive,
        resourceRoles: list(this.resourceRoles),
        rowLevelRoles: list(this.rowLevelRoles),
        clientSecret: this.secret,
      })
      const kind = client.authenticationMethods.includes('none') ? 'public' : 'confidential'
      this.logger.success(
        `created ${kind} client '${client.clientId}' (${client.grantTypes.join(', ')})`
      )
      if (generatedSecret) {
        this.logger.warning('client secret, shown only now (only its digest is stored):')
        this.logger.log(`  ${generatedSecret}`)
      }
    } catch (error) {
      if (!(error instanceof ClientRegistrationError)) throw error
      for (const p of error.problems) {
        this.logger.error(`${flagOf(p.path)}: ${p.message}`)
      }
      this.exitCode = 1
    }
  }
}
