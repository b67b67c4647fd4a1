/**
 * Group commit for SQLite write transactions (direct_writes.ts).
 *
 * With `synchronous = FULL` every COMMIT waits for the disk (an fsync, 0.1 to several ms), and
 * better-sqlite3 waits on the event loop's thread: one commit per request would make the disk,
 * not the server, set the pace of writes. So the write transactions that arrive together share
 * one database transaction:
 *
 * - the first opens a batch: the pool's connection and BEGIN IMMEDIATE;
 * - each joins it with a SAVEPOINT of its own, one after the other (never interleaved), and
 *   ends with RELEASE, or ROLLBACK TO when it fails: a failed request writes nothing and the
 *   others are untouched;
 * - once no request is running and the event loop has had a turn to bring more (or the batch
 *   is full), one COMMIT makes them all durable;
 * - every request's promise settles only after that COMMIT (or its failure): a request is
 *   never told its write succeeded before the write is on disk, and if the COMMIT fails, every
 *   request of the batch gets the error (nothing of theirs is stored);
 * - if SQLite rolls the whole transaction back by itself (disk full, I/O error), every request
 *   of the batch fails with that error, as none of their writes remain.
 *
 * Requests later in a batch see what earlier ones wrote, exactly as if each had committed in
 * turn: the batch is one serial order of requests that is either all stored or all refused.
 */

/** Requests per batch at most: the first ones never wait for an unbounded stream of others. */
const MAX_MEMBERS = 64

const openBatches = new WeakMap<object, Batch>()

const noop = () => {}

class Batch {
  private conn: any = null
  /** The last member's work: members run one after the other. */
  private tail: Promise<unknown>
  /** Members joined whose work has not finished. */
  private running = 0
  private joined = 0
  private savepoints = 0
  private closed = false
  /** Set when the transaction is gone (BEGIN failed, SQLite rolled it back): nothing commits. */
  private lost: { error: unknown } | null = null
  /** Settles once the batch has committed (resolves) or failed to (rejects). */
  private readonly outcome: Promise<void>
  private settle!: { resolve: () => void; reject: (error: unknown) => void }

  constructor(private readonly knexClient: any) {
    this.outcome = new Promise<void>((resolve, reject) => (this.settle = { resolve, reject }))
    this.outcome.catch(noop)
    this.tail = this.begin()
  }

  get full() {
    return this.joined >= MAX_MEMBERS
  }

  private async begin() {
    try {
      this.conn = await this.knexClient.acquireConnection()
      // IMMEDIATE: the write lock from the start, so two processes on one file never deadlock
      // upgrading their read locks (they wait up to the busy timeout instead).
      this.conn.exec('BEGIN IMMEDIATE')
    } catch (error) {
      this.lost = { error }
    }
  }

  join<T>(work: (conn: any) => Promise<T>): Promise<T> {
    this.running++
    this.joined++
    const result = this.tail.then(() => this.runMember(work))
    this.tail = result.then(noop, noop).then(() => {
      if (--this.running === 0) setImmediate(() => this.closeIfIdle())
    })
    // Success only once the batch has committed; a failure once the batch has ended too (its
    // connection is back in the pool by then).
    return result.then(
      async (value) => {
        await this.outcome
        return value
      },
      async (error) => {
        await this.outcome.catch(noop)
        throw error
      }
    )
  }

  private async runMember<T>(work: (conn: any) => Promise<T>): Promise<T> {
    if (this.lost) throw this.lost.error
    const savepoint = `mg_request_${++this.savepoints}`
    this.conn.exec(`SAVEPOINT ${savepoint}`)
    try {
      const value = await work(this.conn)
      this.conn.exec(`RELEASE ${savepoint}`)
      return value
    } catch (error) {
      if (this.conn.inTransaction) {
        this.conn.exec(`ROLLBACK TO ${savepoint}`)
        this.conn.exec(`RELEASE ${savepoint}`)
      } else {
        this.lost = { error }
      }
      throw error
    }
  }

  private closeIfIdle() {
    if (this.running > 0 || this.closed) return // more joined meanwhile: the last one closes
    this.closed = true
    if (openBatches.get(this.knexClient) === this) openBatches.delete(this.knexClient)
    try {
      if (this.lost) throw this.lost.error
      this.conn.exec('COMMIT')
      this.settle.resolve()
    } catch (error) {
      try {
        if (this.conn?.inTransaction) this.conn.exec('ROLLBACK')
      } catch {
        // the pool's validation disposes of a broken connection
      }
      this.settle.reject(error)
    } finally {
      if (this.conn) this.knexClient.releaseConnection(this.conn)
    }
  }
}

/**
 * Runs `work` with the pool's connection inside the current batch (opened when there is none
 * or it is full): resolves with its result once the batch has committed; rejects with its
 * error (nothing of it written) or with the batch's commit error.
 */
export function groupCommit<T>(knexClient: any, work: (conn: any) => Promise<T>): Promise<T> {
  let batch = openBatches.get(knexClient)
  if (!batch || batch.full) {
    batch = new Batch(knexClient)
    openBatches.set(knexClient, batch)
  }
  return batch.join(work)
}
