/**
 * Random secrets and their digests. Client secrets, access and refresh tokens and authorization
 * codes are high-entropy random strings, so a SHA-256 digest is what is stored and looked up
 * (a slow hash is only needed for low-entropy secrets: passwords use scrypt).
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'

/** 96 random bytes, base64url (128 characters), like the upstream opaque tokens. */
export function randomToken(bytes = 96): string {
  return randomBytes(bytes).toString('base64url')
}

export function digest(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex')
}

export function digestMatches(secret: string, expectedHex: string): boolean {
  const actual = Buffer.from(digest(secret), 'hex')
  const expected = Buffer.from(expectedHex, 'hex')
  return actual.length === expected.length && timingSafeEqual(actual, expected)
}

const UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400 }

/** `5m`, `1h`, `24h`, `30s`, `7d` or a number of seconds -> seconds. */
export function parseDuration(value: string | number): number {
  if (typeof value === 'number' && Number.isInteger(value) && value > 0) return value
  const match = /^(\d+)\s*([smhd]?)$/.exec(String(value).trim())
  if (!match || Number(match[1]) <= 0)
    throw new Error(`invalid duration '${value}' (use e.g. 5m, 1h, 24h)`)
  return Number(match[1]) * UNITS[match[2] || 's']
}

/** 300 -> `5m`, 86400 -> `24h`, 90 -> `90s`. */
export function formatDuration(seconds: number): string {
  if (seconds % 3600 === 0) return `${seconds / 3600}h`
  if (seconds % 60 === 0) return `${seconds / 60}m`
  return `${seconds}s`
}
