/**
 * The engine facade held by the container: the model registry, the property resolver and the
 * change watcher of this instance. Changes of the definition come from app/definition.
 */
import type { Database } from '@adonisjs/lucid/database'
import type { Logger } from '@adonisjs/core/logger'
import { ModelRegistry } from './metadata/registry.js'
import { ChangeWatcher } from '#changes/watcher'
import { PropertyResolver } from '../settings/property_resolver.js'
import type { Model } from './metadata/model.js'
import { readVersion } from '#changes/versions'
import { MessageStore } from '../i18n/store.js'

export interface EngineOptions {
  propertiesFile: string | null
  watchIntervalMs: number
}

export class Engine {
  readonly registry = new ModelRegistry()
  readonly properties = new PropertyResolver()
  /** Stored translations (mg_messages), reloaded when the 'messages' version changes. */
  readonly messages = new MessageStore()
  /** mg_versions 'security': bumped on revocations, deactivations and secret changes. */
  securityVersion = 0
  /** mg_versions 'roles': bumped by every change of roles or role assignments. */
  rolesVersion = 0
  /**
   * When this instance last swapped in a new model (epoch ms): a request that started on the
   * previous snapshot may still run its SQL against the changed tables for a moment.
   */
  modelChangedAt = 0
  #watcher: ChangeWatcher
  #started: Promise<void> | null = null

  constructor(
    readonly db: Database,
    private logger: Logger,
    private options: EngineOptions
  ) {
    this.#watcher = new ChangeWatcher(db, () => this.#reload(), options.watchIntervalMs, logger)
  }

  get model(): Model {
    return this.registry.current
  }

  /** Whether start() has been called and stop() not since (the model is loaded and watched). */
  get running(): boolean {
    return this.#started !== null
  }

  /** Loads properties and the model, then watches for changes. Idempotent. */
  start(): Promise<void> {
    this.#started ??= (async () => {
      await this.properties.loadStatic(this.options.propertiesFile)
      await this.refresh()
      await this.#watcher.start()
    })()
    return this.#started
  }

  /** Picks up committed model and settings changes now (coalesced with the watcher's polls). */
  refresh(): Promise<void> {
    return this.#watcher.poll()
  }

  async #reload() {
    const modelChanged = await this.registry.refresh(this.db)
    if (modelChanged) this.modelChangedAt = Date.now()
    await this.properties.refresh(this.db.connection())
    this.securityVersion = await readVersion(this.db.connection(), 'security')
    this.rolesVersion = await readVersion(this.db.connection(), 'roles')
    await this.messages.refresh(this.db.connection())
    if (modelChanged)
      this.logger.info(
        { version: this.model.version },
        'model version %d loaded',
        this.model.version
      )
  }

  async stop() {
    await this.#watcher.stop()
    this.#started = null
  }
}
