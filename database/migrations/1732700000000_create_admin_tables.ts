import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * The admin side of the application definition (app/definition): the `definition` version
 * counter (bumped once by every applied change; the admin API's ETag), the audit trail (one
 * entry per change, with a before/after diff, and the elements it touched for filtering), and
 * the built-in `system-admin` role for an existing `admin` account (new ones get it at creation).
 */
export default class extends BaseSchema {
  async up() {
    this.schema.createTable('mg_audit', (t) => {
      t.increments('id')
      t.timestamp('at', { useTz: true }).notNullable()
      t.string('author_kind', 10).notNullable()
      t.string('author', 255).notNullable().index()
      t.string('source', 255).notNullable()
      t.bigInteger('definition_version').notNullable()
      t.text('changes').notNullable()
      t.text('diff').notNullable()
    })
    this.schema.createTable('mg_audit_elements', (t) => {
      t.integer('audit_id')
        .unsigned()
        .notNullable()
        .references('id')
        .inTable('mg_audit')
        .onDelete('CASCADE')
      t.string('section', 50).notNullable()
      t.string('element', 1024).notNullable()
      t.index(['section', 'element'])
      t.index(['audit_id'])
    })
    this.defer(async (db) => {
      await db.table('mg_versions').insert({ key: 'definition', version: 0 })
      const admin = await db.from('users').where('username', 'admin').first()
      if (admin) {
        const has = await db
          .from('mg_user_resource_roles')
          .where({ user_id: admin.id, role_code: 'system-admin' })
          .first()
        if (!has)
          await db
            .table('mg_user_resource_roles')
            .insert({ user_id: admin.id, role_code: 'system-admin' })
      }
    })
  }

  async down() {
    this.schema.dropTableIfExists('mg_audit_elements')
    this.schema.dropTableIfExists('mg_audit')
    this.defer(async (db) => {
      await db.from('mg_versions').where('key', 'definition').delete()
    })
  }
}
