/**
 * Driver errors never reach the client (architecture principle 7): constraint violations the
 * checks before the write did not catch (races) are translated to the API's answers; anything
 * else stays a server error without the driver's message.
 */
import { DataError } from '../errors.js'
import { mustBeUnique, violation } from './validate.js'

function kind(error: any): 'unique' | 'foreign' | 'notNull' | null {
  const code = String(error?.code ?? '')
  const message = String(error?.message ?? '')
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
    default:
      return error
  }
}
