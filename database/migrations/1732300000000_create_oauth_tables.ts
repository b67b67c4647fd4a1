import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Accounts and the OAuth 2.1 authorization server's storage. Secrets are never stored in clear:
 * passwords are scrypt hashes, client secrets, tokens and codes SHA-256 digests of high-entropy
 * random values, signing keys encrypted with APP_KEY.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.createTable('users', (t) => {
      t.string('id', 36).primary()
      t.string('username', 100).notNullable().unique()
      t.string('password', 255).nullable()
      t.string('first_name', 100).nullable()
      t.string('last_name', 100).nullable()
      t.string('email', 255).nullable()
      t.string('locale', 20).nullable()
      t.string('time_zone', 64).nullable()
      t.boolean('active').notNullable().defaultTo(true)
      // Tokens issued before this instant are dead (deactivation, password change).
      t.timestamp('tokens_valid_after', { useTz: true }).nullable()
      t.timestamp('created_at', { useTz: true }).notNullable()
      t.timestamp('updated_at', { useTz: true }).notNullable()
    })

    this.schema.createTable('oauth_clients', (t) => {
      t.string('id', 36).primary()
      t.string('client_id', 100).notNullable().unique()
      t.string('name', 255).nullable()
      t.string('secret_hash', 255).nullable()
      t.text('authentication_methods').notNullable()
      t.text('grant_types').notNullable()
      t.text('redirect_uris').notNullable()
      t.boolean('require_proof_key').notNullable().defaultTo(true)
      t.string('access_token_format', 20).notNullable().defaultTo('reference')
      t.integer('access_token_ttl').notNullable()
      t.integer('refresh_token_ttl').notNullable()
      t.text('resource_roles').notNullable()
      t.text('row_level_roles').notNullable()
      // 'database' (console, import) or 'config' (svc.authserver.client.<name>.* properties).
      t.string('managed_by', 20).notNullable().defaultTo('database')
      t.string('config_name', 100).nullable()
      t.boolean('active').notNullable().defaultTo(true)
      t.timestamp('tokens_valid_after', { useTz: true }).nullable()
      t.timestamp('created_at', { useTz: true }).notNullable()
      t.timestamp('updated_at', { useTz: true }).notNullable()
    })

    this.schema.createTable('oauth_tokens', (t) => {
      t.string('id', 36).primary()
      t.string('token_hash', 64).notNullable().unique()
      t.string('kind', 10).notNullable()
      t.string('client_pk', 36)
        .notNullable()
        .references('id')
        .inTable('oauth_clients')
        .onDelete('CASCADE')
      t.string('user_id', 36).nullable().references('id').inTable('users').onDelete('CASCADE')
      // One authorization (grant) = the codes, access and refresh tokens that descend from it.
      t.string('grant_id', 36).notNullable().index()
      t.string('scope', 1000).nullable()
      t.timestamp('expires_at', { useTz: true }).notNullable()
      t.timestamp('revoked_at', { useTz: true }).nullable()
      t.timestamp('rotated_at', { useTz: true }).nullable()
      t.timestamp('created_at', { useTz: true }).notNullable()
    })

    this.schema.createTable('oauth_codes', (t) => {
      t.string('id', 36).primary()
      t.string('code_hash', 64).notNullable().unique()
      t.string('client_pk', 36)
        .notNullable()
        .references('id')
        .inTable('oauth_clients')
        .onDelete('CASCADE')
      t.string('user_id', 36).notNullable().references('id').inTable('users').onDelete('CASCADE')
      t.string('grant_id', 36).notNullable()
      t.text('redirect_uri').notNullable()
      t.string('scope', 1000).nullable()
      t.string('code_challenge', 128).nullable()
      t.string('code_challenge_method', 10).nullable()
      t.timestamp('expires_at', { useTz: true }).notNullable()
      t.timestamp('used_at', { useTz: true }).nullable()
      // Set when the code is presented again: tokens from it are revoked, even ones saved later.
      t.timestamp('replayed_at', { useTz: true }).nullable()
      t.timestamp('created_at', { useTz: true }).notNullable()
    })

    this.schema.createTable('oauth_keys', (t) => {
      t.string('kid', 64).primary()
      t.string('algorithm', 10).notNullable()
      t.text('public_jwk').notNullable()
      t.text('private_jwk_encrypted').notNullable()
      t.timestamp('created_at', { useTz: true }).notNullable()
    })

    this.defer(async (db) => {
      await db.table('mg_versions').insert({ key: 'security', version: 0 })
    })
  }

  async down() {
    for (const table of ['oauth_keys', 'oauth_codes', 'oauth_tokens', 'oauth_clients', 'users']) {
      this.schema.dropTableIfExists(table)
    }
    this.defer(async (db) => {
      await db.from('mg_versions').where('key', 'security').delete()
    })
  }
}
