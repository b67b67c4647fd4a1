import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * The Reports add-on (app/reports): groups, reports (the definition as JSON text, with the
 * columns the REST API filters on), templates (metadata; the bytes live on the file storage
 * under `file_key`) and the execution history.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.createTable('mg_report_groups', (t) => {
      t.string('id', 36).primary()
      t.string('title', 255).notNullable().unique()
      t.string('code', 255).nullable()
      t.text('locale_names').nullable()
    })
    this.schema.createTable('mg_reports', (t) => {
      t.string('id', 36).primary()
      t.string('name', 255).notNullable().unique()
      t.string('code', 255).nullable().index()
      t.string('group_id', 36).nullable().references('id').inTable('mg_report_groups')
      t.boolean('rest_access').notNullable().defaultTo(false)
      t.text('definition').notNullable()
      t.timestamp('updated_at', { useTz: true }).notNullable()
    })
    this.schema.createTable('mg_report_templates', (t) => {
      t.increments('id')
      t.string('report_id', 36)
        .notNullable()
        .references('id')
        .inTable('mg_reports')
        .onDelete('CASCADE')
      t.string('code', 255).notNullable()
      t.string('output_type', 20).notNullable()
      t.string('file_name', 500).nullable()
      t.string('file_key', 600).nullable()
      t.string('sha256', 64).nullable()
      t.bigInteger('size').nullable()
      t.string('output_name_pattern', 255).nullable()
      t.boolean('is_default').notNullable().defaultTo(false)
      t.text('options').nullable()
      t.integer('position').notNullable().defaultTo(0)
      t.unique(['report_id', 'code'])
    })
    this.schema.createTable('mg_report_executions', (t) => {
      t.increments('id')
      t.string('report_id', 36).nullable().index()
      t.string('report_name', 255).notNullable()
      t.string('template', 255).nullable()
      t.string('output_type', 20).nullable()
      t.string('username', 255).notNullable()
      t.string('source', 20).notNullable()
      t.timestamp('started_at', { useTz: true }).notNullable().index()
      t.integer('duration_ms').notNullable()
      t.bigInteger('size_bytes').nullable()
      t.integer('rows').nullable()
      t.text('parameters').nullable()
      t.string('outcome', 20).notNullable()
      t.text('error').nullable()
    })
  }

  async down() {
    this.schema.dropTableIfExists('mg_report_executions')
    this.schema.dropTableIfExists('mg_report_templates')
    this.schema.dropTableIfExists('mg_reports')
    this.schema.dropTableIfExists('mg_report_groups')
  }
}
