import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * System tables of the model engine. The application model (entities, attributes, enums,
 * fetch plans, indexes) lives here; runtime entity tables are created from it by the DDL
 * executor (app/engine/schema). `mg_` is reserved: no runtime table may use it.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.createTable('mg_versions', (t) => {
      t.string('key', 50).primary()
      t.bigInteger('version').notNullable().defaultTo(0)
      t.timestamp('updated_at', { useTz: true }).nullable()
    })
    this.defer(async (db) => {
      await db.table('mg_versions').multiInsert([
        { key: 'model', version: 0 },
        { key: 'settings', version: 0 },
      ])
    })

    this.schema.createTable('mg_enums', (t) => {
      t.increments('id')
      t.string('name', 255).notNullable().unique()
      t.text('caption').nullable()
      t.text('description').nullable()
      t.integer('position').notNullable().defaultTo(0)
    })

    this.schema.createTable('mg_enum_values', (t) => {
      t.increments('id')
      t.integer('enum_id').notNullable().references('id').inTable('mg_enums').onDelete('CASCADE')
      t.string('name', 255).notNullable()
      t.string('value_id', 255).notNullable()
      t.text('caption').nullable()
      t.integer('position').notNullable().defaultTo(0)
      t.unique(['enum_id', 'name'])
    })

    this.schema.createTable('mg_entities', (t) => {
      t.increments('id')
      t.string('name', 63).notNullable().unique()
      t.string('table_name', 63).notNullable().unique()
      t.string('id_type', 10).notNullable()
      t.text('traits').notNullable()
      t.text('instance_name').nullable()
      t.text('caption').nullable()
      t.text('description').nullable()
      t.integer('position').notNullable().defaultTo(0)
    })

    this.schema.createTable('mg_attributes', (t) => {
      t.increments('id')
      t.integer('entity_id')
        .notNullable()
        .references('id')
        .inTable('mg_entities')
        .onDelete('CASCADE')
      t.string('name', 63).notNullable()
      t.string('column_name', 63).nullable()
      t.string('type', 20).notNullable()
      t.integer('length').nullable()
      t.integer('precision').nullable()
      t.integer('scale').nullable()
      t.boolean('mandatory').notNullable().defaultTo(false)
      t.boolean('is_unique').notNullable().defaultTo(false)
      t.string('min_value', 100).nullable()
      t.string('max_value', 100).nullable()
      t.text('pattern').nullable()
      t.string('enum_name', 255).nullable()
      t.string('target', 63).nullable()
      t.string('cardinality', 20).nullable()
      t.string('mapped_by', 63).nullable()
      t.string('link_table', 63).nullable()
      t.string('on_delete', 10).nullable()
      t.boolean('transient').notNullable().defaultTo(false)
      t.boolean('read_only').notNullable().defaultTo(false)
      t.text('caption').nullable()
      t.text('description').nullable()
      t.integer('position').notNullable().defaultTo(0)
      t.unique(['entity_id', 'name'])
    })

    this.schema.createTable('mg_indexes', (t) => {
      t.increments('id')
      t.integer('entity_id')
        .notNullable()
        .references('id')
        .inTable('mg_entities')
        .onDelete('CASCADE')
      t.string('name', 63).nullable()
      t.text('attributes').notNullable()
      t.boolean('is_unique').notNullable().defaultTo(false)
      t.integer('position').notNullable().defaultTo(0)
    })

    this.schema.createTable('mg_fetch_plans', (t) => {
      t.increments('id')
      t.string('entity_name', 63).notNullable()
      t.string('name', 100).notNullable()
      t.string('extends', 100).nullable()
      t.text('properties').notNullable()
      t.integer('position').notNullable().defaultTo(0)
      t.unique(['entity_name', 'name'])
    })

    this.schema.createTable('mg_schema_changelog', (t) => {
      t.increments('id')
      t.bigInteger('model_version').notNullable()
      t.string('operation', 40).notNullable()
      t.string('target', 255).notNullable()
      t.text('sql').notNullable()
      t.string('source', 100).nullable()
      t.timestamp('applied_at', { useTz: true }).notNullable()
    })

    this.schema.createTable('mg_settings', (t) => {
      t.string('key', 255).primary()
      t.text('value').notNullable()
      t.timestamp('updated_at', { useTz: true }).notNullable()
    })
  }

  async down() {
    for (const table of [
      'mg_settings',
      'mg_schema_changelog',
      'mg_fetch_plans',
      'mg_indexes',
      'mg_attributes',
      'mg_entities',
      'mg_enum_values',
      'mg_enums',
      'mg_versions',
    ]) {
      this.schema.dropTableIfExists(table)
    }
  }
}
