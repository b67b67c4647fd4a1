/**
 * The `messages` section of the application definition document (spec/app-definition.md):
 * `{ "<locale>": { "<key>": "<text>" | null } }`. Semantic checks with JSON paths, the change
 * lines of a dry run, the writes (inside the import's transaction, with the model, the settings
 * and the clients) and the export. Rules (app/i18n/README.md, "The messages section"):
 *
 * - a locale is written as Java writes it: `en`, `de`, `en_US`;
 * - a key names an element of the model as it is after the import: an entity
 *   (`bookstore_Order`), an attribute, system ones included (`bookstore_Order.number`), an enum
 *   (`com.example.bookstore.OrderStatus`) or an enum value (`com.example.bookstore.OrderStatus.NEW`);
 * - a text replaces the stored one; `null` removes a stored translation; without `prune`, keys
 *   the document does not name are kept; with `prune` (and a `messages` section) they are
 *   removed; a document without the section leaves the stored translations alone;
 * - translations follow their element: renamed entities/attributes (`renamedFrom`) carry them
 *   along, and those of removed elements are removed with them.
 */
import type { QueryClientContract, TransactionClientContract } from '@adonisjs/lucid/types/database'
import type { ModelDefinition } from '../engine/metadata/types.js'
import type { Problem } from '../engine/metadata/validate.js'
import type { Renames } from '../engine/definition/renames.js'
import { Model } from '../engine/metadata/model.js'
import { bumpVersion } from '#changes/versions'
import { compare, readMessageRows, type MessageRow } from './store.js'

/** The section as the document validator hands it over. */
export type MessagesSection = Record<string, Record<string, string | null>>

/** Java `Locale.toString()` forms: language, optional country (or UN M.49 region). */
export const LOCALE_CODE = /^[a-z]{2,3}(_([A-Z]{2}|[0-9]{3}))?$/
/** The width of mg_messages.key (model names are ASCII). */
export const MAX_KEY_LENGTH = 1024

const NO_RENAMES: Renames = { entities: new Map(), attributes: new Map() }

const quoted = (name: string) => `['${name.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}']`

/** `$.messages.de['bookstore_Order.number']`, `$.messages['en-US']`. */
export function messagePath(locale: string, key?: string): string {
  const base = /^[A-Za-z_][A-Za-z0-9_]*$/.test(locale)
    ? `$.messages.${locale}`
    : `$.messages${quoted(locale)}`
  return key === undefined ? base : base + quoted(key)
}
const localePath = (locale: string) => messagePath(locale)
const keyPath = (locale: string, key: string) => messagePath(locale, key)

/** Every key a translation may have in `model`. */
export function modelKeys(model: Model): Set<string> {
  const keys = new Set<string>()
  for (const entity of model.entities.values()) {
    keys.add(entity.name)
    for (const a of entity.attributeList) keys.add(`${entity.name}.${a.name}`)
  }
  for (const e of model.enums.values()) {
    keys.add(e.name)
    for (const v of e.values) keys.add(`${e.name}.${v.name}`)
  }
  return keys
}

function unknownKeyMessage(model: Model, key: string): string {
  const dot = key.lastIndexOf('.')
  if (dot > 0) {
    const owner = key.slice(0, dot)
    const member = key.slice(dot + 1)
    if (model.entities.has(owner)) return `entity '${owner}' has no attribute '${member}'`
    if (model.enums.has(owner)) return `enum '${owner}' has no value '${member}'`
  }
  return `no entity, attribute, enum or enum value of the model is named '${key}' (keys: '<entity>', '<entity>.<attribute>', '<enum>', '<enum>.<VALUE>')`
}

/** Checks of the section against the model as it is after the import (merged, normalized). */
export function checkMessages(
  section: MessagesSection | undefined,
  definition: ModelDefinition
): Problem[] {
  const problems: Problem[] = []
  if (!section) return problems
  const model = new Model(0, definition)
  const keys = modelKeys(model)
  for (const [locale, entries] of Object.entries(section)) {
    if (!LOCALE_CODE.test(locale))
      problems.push({
        path: localePath(locale),
        message: `invalid locale '${locale}': write it as Java does, a language code with an optional country ('en', 'de', 'en_US')`,
      })
    for (const [key, value] of Object.entries(entries)) {
      if (key.length > MAX_KEY_LENGTH)
        problems.push({
          path: keyPath(locale, key.slice(0, 60) + '…'),
          message: `a message key has at most ${MAX_KEY_LENGTH} characters`,
        })
      else if (!keys.has(key))
        problems.push({ path: keyPath(locale, key), message: unknownKeyMessage(model, key) })
      if (value !== null && value.trim() === '')
        problems.push({
          path: keyPath(locale, key),
          message: 'a translation must not be empty (null removes a stored translation)',
        })
    }
  }
  return problems
}

/** Where a stored key moves when its entity or attribute is renamed. */
function renamedKey(renames: Renames, key: string): string {
  const dot = key.indexOf('.')
  const entity = dot < 0 ? key : key.slice(0, dot)
  const target = renames.entities.get(entity) ?? entity
  if (dot < 0) return target
  const attribute = key.slice(dot + 1)
  return `${target}.${renames.attributes.get(target)?.get(attribute) ?? attribute}`
}

type Translations = Map<string, Map<string, string>>

export interface MessagesPlan {
  /** The stored translations after the import, by locale. */
  wanted: Translations
  /** One line per locale with changes (import output, dry runs). */
  changes: string[]
}

/** Pure: the stored rows after importing `section` into a model that becomes `definition`. */
export function planMessages(
  rows: MessageRow[],
  section: MessagesSection | undefined,
  prune: boolean,
  definition: ModelDefinition,
  renames: Renames = NO_RENAMES
): MessagesPlan {
  const keys = modelKeys(new Model(0, definition))
  const wanted: Translations = new Map()
  const localeOf = (locale: string) => {
    if (!wanted.has(locale)) wanted.set(locale, new Map())
    return wanted.get(locale)!
  }
  const own = new Set(rows.map((r) => `${r.locale}\0${r.key}`))
  for (const row of rows) {
    const key = renamedKey(renames, row.key)
    // A translation stored under the new name already wins over the one carried along.
    if (key !== row.key && own.has(`${row.locale}\0${key}`)) continue
    localeOf(row.locale).set(key, row.value)
  }
  if (section) {
    if (prune) {
      for (const [locale, entries] of wanted)
        for (const key of [...entries.keys()])
          if (!Object.hasOwn(section[locale] ?? {}, key)) entries.delete(key)
    }
    for (const [locale, entries] of Object.entries(section)) {
      for (const [key, value] of Object.entries(entries)) {
        if (value === null) wanted.get(locale)?.delete(key)
        else localeOf(locale).set(key, value)
      }
    }
  }
  // Translations of elements the model no longer has go with them.
  for (const entries of wanted.values())
    for (const key of [...entries.keys()]) if (!keys.has(key)) entries.delete(key)
  for (const [locale, entries] of [...wanted]) if (entries.size === 0) wanted.delete(locale)
  return { wanted, changes: describe(rows, wanted) }
}

function describe(rows: MessageRow[], wanted: Translations): string[] {
  const counts = new Map<string, { added: number; changed: number; removed: number }>()
  const count = (locale: string) => {
    if (!counts.has(locale)) counts.set(locale, { added: 0, changed: 0, removed: 0 })
    return counts.get(locale)!
  }
  const stored = new Set<string>()
  for (const row of rows) {
    stored.add(`${row.locale}\0${row.key}`)
    const value = wanted.get(row.locale)?.get(row.key)
    if (value === undefined) count(row.locale).removed++
    else if (value !== row.value) count(row.locale).changed++
  }
  for (const [locale, entries] of wanted)
    for (const key of entries.keys()) if (!stored.has(`${locale}\0${key}`)) count(locale).added++
  return [...counts]
    .sort(([a], [b]) => compare(a, b))
    .map(([locale, c]) => {
      const parts = Object.entries(c).filter(([, n]) => n > 0)
      return `messages ${locale}: ${parts.map(([what, n]) => `${n} ${what}`).join(', ')}`
    })
}

/** The change lines of importing the section (dry runs and the import result). */
export async function describeMessagesChanges(
  client: QueryClientContract,
  section: MessagesSection | undefined,
  prune: boolean,
  definition: ModelDefinition,
  renames?: Renames
): Promise<string[]> {
  const rows = await readMessageRows(client)
  return planMessages(rows, section, prune, definition, renames).changes
}

/**
 * Writes the stored translations inside the import's transaction (re-planned against the rows
 * the transaction sees). Returns whether anything changed; bumps the 'messages' version if so.
 */
export async function writeMessages(
  trx: TransactionClientContract,
  section: MessagesSection | undefined,
  prune: boolean,
  definition: ModelDefinition,
  renames?: Renames
): Promise<boolean> {
  const rows = await readMessageRows(trx)
  const { wanted } = planMessages(rows, section, prune, definition, renames)
  const now = new Date()
  let changed = false
  const stored = new Set<string>()
  for (const row of rows) {
    stored.add(`${row.locale}\0${row.key}`)
    const value = wanted.get(row.locale)?.get(row.key)
    if (value === undefined) await trx.from('mg_messages').where('id', row.id).delete()
    else if (value !== row.value)
      await trx.from('mg_messages').where('id', row.id).update({ value, updated_at: now })
    else continue
    changed = true
  }
  const inserts: Record<string, unknown>[] = []
  for (const [locale, entries] of wanted)
    for (const [key, value] of entries)
      if (!stored.has(`${locale}\0${key}`)) inserts.push({ locale, key, value, updated_at: now })
  for (let i = 0; i < inserts.length; i += 200)
    await trx.table('mg_messages').multiInsert(inserts.slice(i, i + 200))
  if (inserts.length) changed = true
  if (changed) await bumpVersion(trx, 'messages')
  return changed
}

/** The stored translations as the section (locales and keys sorted); undefined when none. */
export async function exportMessages(
  client: QueryClientContract
): Promise<MessagesSection | undefined> {
  const rows = await readMessageRows(client)
  if (rows.length === 0) return undefined
  const section: MessagesSection = {}
  for (const row of rows) (section[row.locale] ??= {})[row.key] = row.value
  return section
}
