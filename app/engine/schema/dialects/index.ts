import type { Dialect } from './dialect.js'
import { pgDialect } from './pg.js'
import { sqliteDialect } from './sqlite.js'

export function dialectFor(name: 'sqlite' | 'pg'): Dialect {
  return name === 'pg' ? pgDialect : sqliteDialect
}
