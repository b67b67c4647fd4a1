/**
 * The admin audit trail (mg_audit, mg_audit_elements): one entry per applied change of the
 * definition (and per administrative action such as revoking a client's tokens), with who made
 * it, when, from where, the change lines and a before/after diff of every element it touched.
 * Secrets never enter it: password and secret digests are masked.
 */
import type { QueryClientContract, TransactionClientContract } from '@adonisjs/lucid/types/database'
import { SECTIONS } from './sections/index.js'
import { isObject } from './shape.js'
import { CLIENT_SECRET_PROPERTY } from '#settings/properties'

export interface Author {
  kind: 'user' | 'client' | 'system'
  name: string
}

export interface ElementChange {
  /** The document key: `entities`, `users`, `settings`, `messages`, ... */
  section: string
  /** The element's name within it: `bookstore_Order`, `alice`, `de:bookstore_Order.number`. */
  element: string
  change: 'created' | 'changed' | 'deleted'
  before?: unknown
  after?: unknown
}

const SECRET_FIELDS = new Set(['password', 'passwordHash', 'clientSecret', 'clientSecretHash'])
const MASK = '********'

function masked(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(masked)
  if (!isObject(value)) return value
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [k, SECRET_FIELDS.has(k) ? MASK : masked(v)])
  )
}

const elementOf = (key: string) =>
  SECTIONS.map((s) => s.keys[key]?.element).find((f) => f !== undefined)

/** Elements of one document key as a map: arrays by their element name, records by key. */
function elements(key: string, value: unknown): Map<string, unknown> {
  const name = elementOf(key)
  if (Array.isArray(value) && name) return new Map(value.map((item) => [name(item), item]))
  const out = new Map<string, unknown>()
  if (!isObject(value)) return out
  for (const [k, v] of Object.entries(value)) {
    // messages: locale -> key -> text, one element per translation.
    if (isObject(v)) for (const [k2, v2] of Object.entries(v)) out.set(`${k}:${k2}`, v2)
    else out.set(k, key === 'settings' && CLIENT_SECRET_PROPERTY.test(k) ? MASK : v)
  }
  return out
}

/** The elements that differ between two exports of the same document keys. */
export function diffExports(
  before: Record<string, unknown>,
  after: Record<string, unknown>
): ElementChange[] {
  const changes: ElementChange[] = []
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const old = elements(key, before[key])
    const now = elements(key, after[key])
    for (const [element, value] of now) {
      const previous = old.get(element)
      if (!old.has(element))
        changes.push({ section: key, element, change: 'created', after: masked(value) })
      else if (JSON.stringify(previous) !== JSON.stringify(value))
        changes.push({
          section: key,
          element,
          change: 'changed',
          before: masked(previous),
          after: masked(value),
        })
    }
    for (const [element, value] of old)
      if (!now.has(element))
        changes.push({ section: key, element, change: 'deleted', before: masked(value) })
  }
  return changes
}

export async function writeAudit(
  trx: TransactionClientContract,
  entry: {
    author: Author
    source: string
    definitionVersion: number
    changes: string[]
    elements: ElementChange[]
  }
): Promise<number> {
  const [row] = await trx
    .table('mg_audit')
    .insert({
      at: new Date(),
      author_kind: entry.author.kind,
      author: entry.author.name.slice(0, 255),
      source: entry.source.slice(0, 255),
      definition_version: entry.definitionVersion,
      changes: JSON.stringify(entry.changes),
      diff: JSON.stringify(entry.elements),
    })
    .returning('id')
  const id = Number(typeof row === 'object' ? row.id : row)
  const keys = new Set(entry.elements.map((e) => `${e.section}\0${e.element}`))
  const rows = [...keys].map((k) => {
    const [section, element] = k.split('\0')
    return { audit_id: id, section, element: element.slice(0, 1024) }
  })
  for (let i = 0; i < rows.length; i += 200)
    await trx.table('mg_audit_elements').multiInsert(rows.slice(i, i + 200))
  return id
}

export interface AuditQuery {
  /** One entry by its id (the admin API's GET /audit/:id). */
  id?: number
  section?: string
  element?: string
  author?: string
  offset: number
  limit: number
}

/** Entries newest first, filtered by section, element (exact) and author (exact). */
export async function readAudit(client: QueryClientContract, q: AuditQuery) {
  const query = client.from('mg_audit')
  if (q.id !== undefined) query.where('id', q.id)
  if (q.author) query.where('author', q.author)
  if (q.section || q.element)
    query.whereExists((sub) => {
      sub.from('mg_audit_elements').whereColumn('mg_audit_elements.audit_id', 'mg_audit.id')
      if (q.section) sub.where('mg_audit_elements.section', q.section)
      if (q.element) sub.where('mg_audit_elements.element', q.element)
    })
  const [{ total }] = await query.clone().count('* as total')
  const rows = await query.select('*').orderBy('id', 'desc').offset(q.offset).limit(q.limit)
  return {
    total: Number(total),
    entries: rows.map((r) => ({
      id: Number(r.id),
      at: new Date(r.at).toISOString(),
      author: { kind: r.author_kind, name: r.author },
      source: r.source,
      definitionVersion: Number(r.definition_version),
      changes: JSON.parse(r.changes),
      elements: JSON.parse(r.diff),
    })),
  }
}

/**
 * An administrative action that is not a change of the definition (revoking a client's tokens):
 * audited like one, inside the caller's transaction, without a definition version bump.
 */
export async function recordAction(
  trx: TransactionClientContract,
  action: { author: Author; source: string; summary: string; element: ElementChange }
) {
  const row = await trx.from('mg_versions').where('key', 'definition').select('version').first()
  return writeAudit(trx, {
    author: action.author,
    source: action.source,
    definitionVersion: Number(row?.version ?? 0),
    changes: [action.summary],
    elements: [action.element],
  })
}
