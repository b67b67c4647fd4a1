/*
 * Pure helpers of the settings page: grouping by prefix, search, the input kind of a property,
 * how a value reads, and where a 422 message belongs in a list.
 */
import type { Setting, SettingSource, SettingValue } from '../api/settings'

export interface SettingGroup {
  key: string
  title: string
  hint: string
  settings: Setting[]
}

const GROUPS: Record<string, { title: string; hint: string }> = {
  server: { title: 'Server', hint: 'Public address of this server' },
  rest: { title: 'REST API', hint: 'Limits and behaviour of /rest' },
  'resource-server': { title: 'Resource server', hint: 'Which URLs need a token' },
  authserver: { title: 'Authorization server', hint: 'Login, codes, configuration clients' },
  cors: { title: 'CORS', hint: 'Browser access from other origins' },
  core: { title: 'Core', hint: 'Locales, files, entity serialization' },
}
const ORDER = Object.keys(GROUPS)

/** `svc.resource-server.x` -> `resource-server`. */
export const prefixOf = (name: string) => name.split('.')[1] ?? 'other'

/** Groups in a fixed order (known prefixes first), settings sorted by name within each. */
export function groupSettings(settings: Setting[]): SettingGroup[] {
  const byKey = new Map<string, Setting[]>()
  for (const s of settings) {
    const key = prefixOf(s.name)
    byKey.set(key, [...(byKey.get(key) ?? []), s])
  }
  const rank = (k: string) => (ORDER.includes(k) ? ORDER.indexOf(k) : ORDER.length)
  return [...byKey.keys()]
    .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b))
    .map((key) => ({
      key,
      title: GROUPS[key]?.title ?? key,
      hint: GROUPS[key]?.hint ?? `svc.${key}.*`,
      settings: (byKey.get(key) ?? []).sort((a, b) => a.name.localeCompare(b.name)),
    }))
}

/** `svc.rest.anonymous-url-patterns` -> `SVC_REST_ANONYMOUS_URL_PATTERNS`. */
export const envNameOf = (name: string) => name.replace(/[.-]/g, '_').toUpperCase()

export function formatValue(value: SettingValue | unknown): string {
  if (Array.isArray(value)) return value.length ? value.join(', ') : '(empty list)'
  if (typeof value === 'boolean') return value ? 'on' : 'off'
  if (value === '' || value === null || value === undefined) return '(empty)'
  return String(value)
}

/** Whether a setting matches the search text (name, environment name, description, value). */
export function matches(setting: Setting, query: string): boolean {
  const q = query.trim().toLowerCase()
  if (!q) return true
  return [setting.name, envNameOf(setting.name), setting.description ?? '', formatValue(setting.value)]
    .join('\n')
    .toLowerCase()
    .includes(q)
}

export type InputKind = 'boolean' | 'int' | 'duration' | 'list' | 'string'

export function inputKind(setting: Setting): InputKind {
  if (setting.type === 'string' && setting.name.endsWith('time-to-live')) return 'duration'
  return setting.type === 'string' ? 'string' : setting.type
}

const CLIENT_PROPERTY = /^svc\.authserver\.client\.[^.]+\./

/** Why a property cannot be edited here (null when it can). */
export function readOnlyReason(setting: Setting): string | null {
  if (CLIENT_PROPERTY.test(setting.name))
    return 'Configuration clients are declared in the environment or config/application.properties and applied at server start; manage clients on the OAuth clients page.'
  return null
}

export const SOURCE_LABEL: Record<SettingSource, string> = {
  default: 'default',
  file: 'file',
  env: 'environment',
  database: 'stored',
}

export const SOURCE_BADGE: Record<SettingSource, string> = {
  default: 'badge badge--outline',
  file: 'badge',
  env: 'badge badge--warn',
  database: 'badge badge--accent',
}

/** Where a fallback value comes from, in words. */
export function sourceText(source: SettingSource, name: string): string {
  switch (source) {
    case 'env':
      return `the environment variable ${envNameOf(name)}`
    case 'file':
      return 'config/application.properties'
    case 'database':
      return 'the stored value'
    default:
      return 'the built-in default'
  }
}

/**
 * A list property's 422 message names the refused entry (`URL pattern 'x' must start with '/'`,
 * `'/**' would open every URL…`): the indexes of the rows it quotes (empty when it names none).
 */
export function rowsNamedBy(message: string, values: string[]): number[] {
  const rows: number[] = []
  values.forEach((v, i) => {
    if (v.trim() !== '' && message.includes(`'${v.trim()}'`)) rows.push(i)
  })
  return rows
}

/**
 * `5m` -> {amount: '5', unit: 'm'}; a bare number is seconds; an amount being typed may be empty
 * (`m`); null when it is no duration.
 */
export function parseDuration(value: string): { amount: string; unit: string } | null {
  const match = /^(\d*)\s*([smhd]?)$/.exec(value.trim())
  return match ? { amount: match[1] ?? '', unit: match[2] || 's' } : null
}
