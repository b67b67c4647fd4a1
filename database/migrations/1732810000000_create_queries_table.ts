import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Named queries: the `queries` section of the application definition (app/engine/queries),
 * served by /rest/queries. One row per (entity, name); `definition` is the query as JSON text
 * (filter, params, sort, fetchPlan, limit, offset). Read on every request: no cache to reload.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.createTable('mg_queries', (t) => {
      t.increments('id')
      t.string('entity', 255).notNullable()
      t.string('name', 255).notNullable()
      t.text('definition').notNullable()
      t.timestamp('updated_at', { useTz: true }).notNullable()
      t.unique(['entity', 'name'])
    })
  }

  async down() {
    this.schema.dropTableIfExists('mg_queries')
  }
}
