/*
 * How values read from /rest are shown in the table and how write errors are read:
 * references by instance name, enums by caption, dates and decimals formatted, files by name.
 */
import type { ModelAttribute, ModelEnum } from '../../../lib/model'
import { captionOf, isToMany } from '../../../lib/model'
import { ApiError } from '../../../lib/api'
import { fileNameOf } from './rest'

export interface Cell {
  text: string
  /** The raw value when the text differs (tooltip). */
  title?: string
  numeric?: boolean
  muted?: boolean
}

const numberFormat = new Map<string, Intl.NumberFormat>()
function formatNumber(n: number, minFraction?: number, maxFraction?: number) {
  const key = `${minFraction}:${maxFraction}`
  let f = numberFormat.get(key)
  if (!f) {
    f = new Intl.NumberFormat('en-US', {
      minimumFractionDigits: minFraction,
      maximumFractionDigits: maxFraction ?? 20,
    })
    numberFormat.set(key, f)
  }
  return f.format(n)
}

const dateTimeFormat = new Intl.DateTimeFormat(undefined, {
  dateStyle: 'medium',
  timeStyle: 'medium',
})

const nameOf = (v: unknown) => {
  if (v && typeof v === 'object') {
    const o = v as { _instanceName?: string; id?: string }
    return o._instanceName ?? o.id ?? ''
  }
  return String(v)
}

export function formatCell(a: ModelAttribute, value: unknown, enums: ModelEnum[]): Cell {
  if (value === undefined || value === null) return { text: '—', muted: true }
  if (a.type === 'association' || a.type === 'composition') {
    if (isToMany(a) || Array.isArray(value)) {
      const items = Array.isArray(value) ? value : []
      if (!items.length) return { text: '—', muted: true }
      const names = items.map(nameOf)
      const shown = names.slice(0, 3).join(', ') + (names.length > 3 ? ` +${names.length - 3}` : '')
      return { text: shown, title: names.join('\n') }
    }
    const o = value as { id?: string }
    return { text: nameOf(value), title: o.id ? `id ${o.id}` : undefined }
  }
  switch (a.type) {
    case 'boolean':
      return { text: value ? 'Yes' : 'No' }
    case 'int':
    case 'long':
    case 'double':
      return typeof value === 'number'
        ? { text: formatNumber(value), numeric: true }
        : { text: String(value), numeric: true }
    case 'decimal': {
      const scale = typeof a.scale === 'number' ? a.scale : 2
      const n = Number(value)
      return Number.isFinite(n)
        ? { text: formatNumber(n, scale, scale), numeric: true, title: String(value) }
        : { text: String(value) }
    }
    case 'dateTime':
      return { text: String(value).replace('T', ' ') }
    case 'offsetDateTime': {
      const d = new Date(String(value))
      return Number.isNaN(d.getTime())
        ? { text: String(value) }
        : { text: dateTimeFormat.format(d), title: String(value) }
    }
    case 'file':
      return { text: fileNameOf(String(value)), title: String(value) }
    case 'json': {
      const text = JSON.stringify(value)
      return {
        text: text.length > 80 ? `${text.slice(0, 79)}…` : text,
        title: text.length > 80 ? text : undefined,
      }
    }
    case 'enum': {
      const def = enums.find((e) => e.name === a.enum)
      const v = def?.values.find((x) => x.name === value)
      return v ? { text: captionOf(v), title: v.name } : { text: String(value) }
    }
    default:
      return { text: typeof value === 'object' ? JSON.stringify(value) : String(value) }
  }
}

/** One bean-validation item of a 400 answer (reference 5.2). */
export interface Violation {
  message: string
  path: string
  invalidValue?: unknown
}

export function violationsOf(error: unknown): Violation[] {
  if (!(error instanceof ApiError) || error.status !== 400 || !Array.isArray(error.body)) return []
  return (error.body as Violation[]).filter((v) => v && typeof v.message === 'string')
}

/** Violations keyed by their path (`number`, `lines[0].quantity`), messages joined. */
export function violationMap(error: unknown): Record<string, string> {
  const out: Record<string, string> = {}
  for (const v of violationsOf(error)) {
    const key = v.path ?? ''
    out[key] = out[key] ? `${out[key]}; ${v.message}` : v.message
  }
  return out
}

/** What a failed write means for the admin, in one or two sentences. */
export function explainWriteError(error: unknown): {
  title: string
  detail?: string
  kind: 'lock' | 'forbidden' | 'validation' | 'other'
} {
  if (error instanceof ApiError) {
    if (error.status === 409 && error.error === 'Optimistic lock')
      return {
        kind: 'lock',
        title: 'Someone else changed this row after you opened it',
        detail:
          'Nothing was saved. Reload to see their version (your unsaved edits are discarded), then make your change again.',
      }
    if (error.status === 403)
      return {
        kind: 'forbidden',
        title: 'Your roles do not allow this',
        detail: `${error.details ?? error.error ?? 'Forbidden'}. The data browser uses your own token, so your resource and row-level roles apply (see Effective permissions).`,
      }
    if (violationsOf(error).length)
      return {
        kind: 'validation',
        title: 'Some values are not valid',
        detail: 'Nothing was saved. See the messages at the fields.',
      }
    if (error.status === 409)
      return { kind: 'other', title: error.error ?? 'Conflict', detail: error.details }
    if (error.status === 404)
      return {
        kind: 'other',
        title: 'This row no longer exists (or is hidden from you)',
        detail: error.details,
      }
    return {
      kind: 'other',
      title: error.error ? `${error.error} (HTTP ${error.status})` : error.message,
      detail: error.details,
    }
  }
  return { kind: 'other', title: error instanceof Error ? error.message : String(error) }
}
