import { BaseSchema } from '@adonisjs/lucid/schema'
import { normalizeSqliteDateTimes, storedDateTimeColumns } from '#engine/schema/temporal_text'

/**
 * SQLite only: the `dateTime` values earlier versions stored with the fraction as the client
 * sent it (`2021-02-06 12:03:38.000`) are rewritten in the canonical form the filters compare
 * with (`2021-02-06 12:03:38`; app/engine/schema/temporal_text.ts). Nothing to undo.
 */
export default class extends BaseSchema {
  async up() {
    this.defer(async (client) => {
      if (client.dialect.name === 'postgres') return
      await normalizeSqliteDateTimes(client, await storedDateTimeColumns(client))
    })
  }

  async down() {}
}
