import { randomUUID } from 'node:crypto'
import { DateTime } from 'luxon'
import hash from '@adonisjs/core/services/hash'
import { compose } from '@adonisjs/core/helpers'
import { BaseModel, beforeCreate, column } from '@adonisjs/lucid/orm'
import { withAuthFinder } from '@adonisjs/auth/mixins/lucid'
import type { LucidModel } from '@adonisjs/lucid/types/model'
import { dbBoolean } from '#changes/db_values'

const AuthFinder = withAuthFinder(() => hash.use('scrypt'), {
  uids: ['username'],
  passwordColumnName: 'password',
})

/** An application user. The password column holds a scrypt hash (withAuthFinder hashes it). */
export default class User extends compose(BaseModel, AuthFinder) {
  static table = 'users'
  /** The uuid is assigned before insert (SQLite would otherwise report the rowid as id). */
  static selfAssignPrimaryKey = true

  @column({ isPrimary: true })
  declare id: string

  @column()
  declare username: string

  @column({ serializeAs: null })
  declare password: string | null

  @column()
  declare firstName: string | null

  @column()
  declare lastName: string | null

  @column()
  declare email: string | null

  @column()
  declare locale: string | null

  @column()
  declare timeZone: string | null

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
  static assignId(user: User) {
    user.id ??= randomUUID()
  }

  /**
   * The sign-in lookup of verifyCredentials: users without a password, the built-in `anonymous`
   * among them, are never found, so they fail exactly like an unknown user (same timing, same
   * E_INVALID_CREDENTIALS) and can never sign in.
   */
  static findForAuth<T extends LucidModel>(this: T, _uids: string[], value: string) {
    return this.query()
      .where('username', value)
      .whereNot('username', 'anonymous')
      .whereNotNull('password')
      .first() as Promise<InstanceType<T> | null>
  }
}
