import { BaseSchema } from '@adonisjs/lucid/schema'

/** Storage of @adonisjs/limiter's database store (login attempts). */
export default class extends BaseSchema {
  async up() {
    this.schema.createTable('rate_limits', (t) => {
      t.string('key', 255).notNullable().primary()
      t.integer('points', 9).notNullable().defaultTo(0)
      t.bigint('expire').unsigned()
    })
  }

  async down() {
    this.schema.dropTable('rate_limits')
  }
}
