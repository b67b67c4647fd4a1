/*
 * Writes .env from .env.example with a fresh APP_KEY when a clone has none, so that
 * `npm start`, `npm test` and `node ace ...` work on a fresh clone without manual steps.
 */
import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'

export function ensureEnv() {
  mkdirSync('tmp', { recursive: true })
  if (existsSync('.env')) return
  const example = readFileSync('.env.example', 'utf8')
  const key = randomBytes(32).toString('base64url')
  writeFileSync('.env', example.replace(/^APP_KEY=.*$/m, `APP_KEY=${key}`))
  // Standard error: a command's standard output may carry a document (app:export).
  console.error('created .env from .env.example with a new APP_KEY')
}

if (import.meta.url === `file://${process.argv[1]}`) ensureEnv()
