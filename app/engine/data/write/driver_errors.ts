/**
 * Driver errors never reach the client (architecture principle 7): constraint violations the
 * checks before the write did not catch (races) are translated to the API's answers; anything
 * else stays a server error without the driver's message.
 */
import { DataError } from '../errors.js'
import { mustBeUnique, violation } from './validate.js'

type Kind = 'unique' | 'foreign' | 'notNull' | 'busy' | 'full'

function kind(error: any): Kind | null {
  const code = String(error?.code ?? '')
  const message = String(error?.message ?? '')
  // Lock waits that ran out (SQLite busy timeout), deadlocks and serialisation failures: the
  // transaction was rolled back and can be retried (catalogue 1.6).
  if (/^SQLITE_(BUSY|LOCKED)/.test(code) || code === '40P01' || code === '40001') return 'busy'
  if (code === 'SQLITE_FULL' || code === '53100') return 'full'
  if (code === '23505' || /UNIQUE constraint failed/i.test(message)) return 'unique'
  if (code === '23503' || /FOREIGN KEY constraint failed/i.test(message)) return 'foreign'
  if (code === '23502' || /NOT NULL constraint failed/i.test(message)) return 'notNull'
  return null
}

export function translateDriverError(error: unknown): unknown {
  if (error instanceof DataError) return error
  switch (kind(error)) {
    case 'unique':
      return new DataError(400, 'Validation failed', 'Unique constraint violation', [
        mustBeUnique('', null),
      ])
    case 'foreign':
      return new DataError(
        409,
        'Delete policy violation',
        'The change conflicts with rows referencing or referenced by this entity'
      )
    case 'notNull':
      return new DataError(400, 'Validation failed', 'Mandatory value missing', [
        violation('', 'must not be null', 'jakarta.validation.constraints.NotNull.message', null),
      ])
    case 'busy':
      return new DataError(
        503,
        'Database busy',
        'The database was busy with other writes; nothing was written. Try again.'
      )
    case 'full':
      return new DataError(507, 'Insufficient storage', 'The database is full; nothing was written')
    default:
      return error
  }
}
