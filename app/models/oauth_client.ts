import { randomUUID } from 'node:crypto'
import { DateTime } from 'luxon'
import { BaseModel, beforeCreate, column } from '@adonisjs/lucid/orm'
import { dbBoolean } from '#changes/db_values'

const jsonList = {
  prepare: (value: string[]) => JSON.stringify(value ?? []),
  consume: (value: string | string[]) => (Array.isArray(value) ? value : JSON.parse(value ?? '[]')),
}

export type AuthenticationMethod = 'client_secret_basic' | 'client_secret_post' | 'none'
export type GrantType = 'client_credentials' | 'authorization_code' | 'refresh_token' | 'password'

/** A registered OAuth client (spec 5.3). `secretHash` is the SHA-256 digest of the secret. */
export default class OAuthClient extends BaseModel {
  static table = 'oauth_clients'
  /** The uuid is assigned before insert (SQLite would otherwise report the rowid as id). */
  static selfAssignPrimaryKey = true

  @column({ isPrimary: true })
  declare id: string

  @column()
  declare clientId: string

  @column()
  declare name: string | null

  @column({ serializeAs: null })
  declare secretHash: string | null

  @column(jsonList)
  declare authenticationMethods: AuthenticationMethod[]

  @column(jsonList)
  declare grantTypes: GrantType[]

  @column(jsonList)
  declare redirectUris: string[]

  @column({ consume: dbBoolean })
  declare requireProofKey: boolean

  @column()
  declare accessTokenFormat: 'reference' | 'self-contained'

  /** Seconds. */
  @column({ columnName: 'access_token_ttl' })
  declare accessTokenTtl: number

  /** Seconds. */
  @column({ columnName: 'refresh_token_ttl' })
  declare refreshTokenTtl: number

  @column(jsonList)
  declare resourceRoles: string[]

  @column(jsonList)
  declare rowLevelRoles: string[]

  @column()
  declare managedBy: 'database' | 'config'

  @column()
  declare configName: string | null

  @column({ consume: dbBoolean })
  declare active: boolean

  /** Tokens issued before this instant are dead. Written by the token store (as a Date). */
  @column({ serializeAs: null })
  declare tokensValidAfter: Date | number | string | null

  @column.dateTime({ autoCreate: true })
  declare createdAt: DateTime

  @column.dateTime({ autoCreate: true, autoUpdate: true })
  declare updatedAt: DateTime

  @beforeCreate()
  static assignId(client: OAuthClient) {
    client.id ??= randomUUID()
  }

  get isPublic(): boolean {
    return this.authenticationMethods.includes('none') && !this.secretHash
  }
}
