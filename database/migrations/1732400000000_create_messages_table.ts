import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Stored translations: the `messages` section of the application definition (app/i18n). One row
 * per (locale, key); the 'messages' version counter tells every instance to reload them.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.createTable('mg_messages', (t) => {
      t.increments('id')
      t.string('locale', 35).notNullable()
      t.string('key', 1024).notNullable()
      t.text('value').notNullable()
      t.timestamp('updated_at', { useTz: true }).notNullable()
      t.unique(['locale', 'key'])
    })
    this.defer(async (db) => {
      await db.table('mg_versions').insert({ key: 'messages', version: 0 })
    })
  }

  async down() {
    this.schema.dropTableIfExists('mg_messages')
    this.defer(async (db) => {
      await db.from('mg_versions').where('key', 'messages').delete()
    })
  }
}
