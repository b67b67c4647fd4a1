/**
 * Holds the current model snapshot. A refresh reads the version and the model rows in one
 * snapshot-isolated transaction, so a reader never sees a half-applied model.
 */
import type { Database } from '@adonisjs/lucid/database'
import { Model } from './model.js'
import { EMPTY_MODEL } from './normalize.js'
import { readVersion } from '#changes/versions'
import { loadModelDefinition } from './store.js'

export class ModelRegistry {
  #model = new Model(0, EMPTY_MODEL)

  get current(): Model {
    return this.#model
  }

  async refresh(db: Database, force = false): Promise<boolean> {
    const client = db.connection()
    if (!force && (await readVersion(client, 'model')) === this.#model.version) return false
    const isolationLevel = client.dialect.name === 'postgres' ? 'repeatable read' : undefined
    const next = await db.transaction(
      async (trx) => {
        const version = await readVersion(trx, 'model')
        if (!force && version === this.#model.version) return null
        return new Model(version, await loadModelDefinition(trx))
      },
      isolationLevel ? { isolationLevel } : undefined
    )
    if (!next || (!force && next.version < this.#model.version)) return false
    this.#model = next
    return true
  }
}
