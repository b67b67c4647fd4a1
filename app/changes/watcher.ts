/**
 * Keeps this instance's model snapshot and stored settings current. Every instance polls the
 * version rows (cheap: one indexed read); on PostgreSQL it also LISTENs on `mg_changes`, so a
 * change committed by another instance is picked up within milliseconds.
 */
import pg from 'pg'
import type { Database } from '@adonisjs/lucid/database'
import type { Logger } from '@adonisjs/core/logger'

export class ChangeWatcher {
  #timer: NodeJS.Timeout | null = null
  #listener: pg.Client | null = null
  #running: Promise<void> | null = null
  #again = false

  constructor(
    private db: Database,
    private refresh: () => Promise<void>,
    private intervalMs: number,
    private logger: Logger
  ) {}

  async start() {
    this.#timer = setInterval(() => void this.poll(), this.intervalMs)
    this.#timer.unref()
    const connection = this.db.connection()
    if (connection.dialect.name === 'postgres') await this.#listen()
  }

  async #listen() {
    const config = (this.db.getRawConnection(this.db.primaryConnectionName)?.config as any)
      ?.connection
    const client = new pg.Client(config)
    client.on('notification', () => void this.poll())
    client.on('error', (error) =>
      this.logger.warn({ err: error }, 'change listener lost; polling continues')
    )
    try {
      await client.connect()
      await client.query('LISTEN mg_changes')
      this.#listener = client
    } catch (error) {
      this.logger.warn({ err: error }, 'cannot LISTEN for model changes; polling only')
    }
  }

  /** Coalesces concurrent triggers: at most one refresh runs, and one more follows if needed. */
  poll(): Promise<void> {
    if (this.#running) {
      this.#again = true
      return this.#running
    }
    this.#running = (async () => {
      do {
        this.#again = false
        try {
          await this.refresh()
        } catch (error) {
          this.logger.warn({ err: error }, 'model/settings refresh failed')
        }
      } while (this.#again)
    })().finally(() => {
      this.#running = null
    })
    return this.#running
  }

  async stop() {
    if (this.#timer) clearInterval(this.#timer)
    this.#timer = null
    if (this.#listener) await this.#listener.end().catch(() => {})
    this.#listener = null
    if (this.#running) await this.#running
  }
}
