/**
 * Keeps this instance's model snapshot and stored settings current. Every instance polls the
 * version rows (cheap: one indexed read); on PostgreSQL it also LISTENs on `mg_changes`, so a
 * change committed by another instance is picked up within milliseconds.
 */
import pg from 'pg'
import type { Database } from '@adonisjs/lucid/database'
import type { Logger } from '@adonisjs/core/logger'

/** Reconnection of a lost LISTEN connection: 0.5 s, doubling up to 10 s, while polling goes on. */
const RETRY_MIN_MS = 500
const RETRY_MAX_MS = 10000

export class ChangeWatcher {
  #timer: NodeJS.Timeout | null = null
  #listener: pg.Client | null = null
  #running: Promise<void> | null = null
  #again = false
  #stopped = false
  #retry: NodeJS.Timeout | null = null
  #retryMs = RETRY_MIN_MS

  constructor(
    private db: Database,
    private refresh: () => Promise<void>,
    private intervalMs: number,
    private logger: Logger
  ) {}

  async start() {
    this.#stopped = false
    this.#timer = setInterval(() => void this.poll(), this.intervalMs)
    this.#timer.unref()
    const connection = this.db.connection()
    if (connection.dialect.name === 'postgres') await this.#listen()
  }

  /**
   * LISTENs on a connection of its own. When it is lost (the database restarted, the backend
   * was terminated) it is opened again with a growing delay, and the first poll after that
   * catches up on what was committed meanwhile.
   */
  async #listen() {
    const config = (this.db.getRawConnection(this.db.primaryConnectionName)?.config as any)
      ?.connection
    const client = new pg.Client(config)
    let lost = false
    const onLost = (error?: Error) => {
      if (lost) return
      lost = true
      if (this.#listener === client) this.#listener = null
      client.end().catch(() => {})
      if (this.#stopped) return
      this.logger.warn({ err: error }, 'change listener lost; polling continues, reconnecting')
      this.#reconnectLater()
    }
    client.on('notification', () => void this.poll())
    client.on('error', onLost)
    client.on('end', () => onLost())
    try {
      await client.connect()
      await client.query('LISTEN mg_changes')
      if (this.#stopped) return void client.end().catch(() => {})
      this.#listener = client
      this.#retryMs = RETRY_MIN_MS
    } catch (error) {
      if (!lost) {
        lost = true
        client.end().catch(() => {})
        if (this.#stopped) return
        this.logger.warn({ err: error }, 'cannot LISTEN for model changes; polling, retrying')
        this.#reconnectLater()
      }
    }
  }

  #reconnectLater() {
    if (this.#retry || this.#stopped) return
    const delay = this.#retryMs
    this.#retryMs = Math.min(this.#retryMs * 2, RETRY_MAX_MS)
    this.#retry = setTimeout(() => {
      this.#retry = null
      void this.#listen().then(() => this.#listener && this.poll())
    }, delay)
    this.#retry.unref()
  }

  /** Whether the LISTEN connection is up (PostgreSQL; tests and health figures). */
  get listening() {
    return this.#listener !== null
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
    this.#stopped = true
    if (this.#retry) clearTimeout(this.#retry)
    this.#retry = null
    if (this.#timer) clearInterval(this.#timer)
    this.#timer = null
    if (this.#listener) await this.#listener.end().catch(() => {})
    this.#listener = null
    if (this.#running) await this.#running
  }
}
