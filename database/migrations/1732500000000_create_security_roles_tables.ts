import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Resource roles, row-level roles and their assignment to users (app/security/README.md). Role
 * codes are referenced by value, not by foreign key: the built-in roles (`system-full-access`,
 * `rest-minimal`, `anonymous`) are not stored. JSON lists are text columns (both dialects).
 * OAuth clients keep their role codes in `oauth_clients.resource_roles` / `row_level_roles`.
 * The 'roles' version counter tells every instance to drop what it compiled from these rows.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.createTable('mg_resource_roles', (t) => {
      t.increments('id')
      t.string('code', 255).notNullable().unique()
      t.string('name', 255).notNullable()
      t.text('description').notNullable()
      t.text('scopes').notNullable()
      t.text('child_roles').notNullable()
      t.timestamp('updated_at', { useTz: true }).notNullable()
    })
    const policyTable = (name: string, columns: (t: any) => void) =>
      this.schema.createTable(name, (t) => {
        t.increments('id')
        t.integer('role_id')
          .unsigned()
          .notNullable()
          .references('id')
          .inTable('mg_resource_roles')
          .onDelete('CASCADE')
        t.integer('position').notNullable()
        columns(t)
      })
    policyTable('mg_resource_entity_policies', (t) => {
      t.string('entity', 255).notNullable()
      t.text('actions').notNullable()
    })
    policyTable('mg_resource_attribute_policies', (t) => {
      t.string('entity', 255).notNullable()
      t.text('attributes').notNullable()
      t.string('action', 10).notNullable()
    })
    policyTable('mg_resource_specific_policies', (t) => {
      t.string('resource', 255).notNullable()
    })

    this.schema.createTable('mg_row_level_roles', (t) => {
      t.increments('id')
      t.string('code', 255).notNullable().unique()
      t.string('name', 255).notNullable()
      t.text('description').notNullable()
      t.timestamp('updated_at', { useTz: true }).notNullable()
    })
    this.schema.createTable('mg_row_level_policies', (t) => {
      t.increments('id')
      t.integer('role_id')
        .unsigned()
        .notNullable()
        .references('id')
        .inTable('mg_row_level_roles')
        .onDelete('CASCADE')
      t.integer('position').notNullable()
      t.string('entity', 255).notNullable()
      t.string('type', 10).notNullable()
      t.text('actions').notNullable()
      t.text('filter').notNullable()
    })

    for (const table of ['mg_user_resource_roles', 'mg_user_row_level_roles']) {
      this.schema.createTable(table, (t) => {
        t.string('user_id', 36).notNullable().references('id').inTable('users').onDelete('CASCADE')
        t.string('role_code', 255).notNullable()
        t.primary(['user_id', 'role_code'])
      })
    }

    this.defer(async (db) => {
      await db.table('mg_versions').insert({ key: 'roles', version: 0 })
    })
  }

  async down() {
    for (const table of [
      'mg_user_row_level_roles',
      'mg_user_resource_roles',
      'mg_row_level_policies',
      'mg_row_level_roles',
      'mg_resource_specific_policies',
      'mg_resource_attribute_policies',
      'mg_resource_entity_policies',
      'mg_resource_roles',
    ]) {
      this.schema.dropTableIfExists(table)
    }
    this.defer(async (db) => {
      await db.from('mg_versions').where('key', 'roles').delete()
    })
  }
}
