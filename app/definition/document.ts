/**
 * The application definition document (spec/app-definition.md): parsing (JSON or YAML) and
 * structural validation with VineJS, composed from the schemas of the registered sections
 * (./sections/index.ts). Every problem is reported with its JSON path; unknown keys are
 * problems too.
 */
import vine, { SimpleMessagesProvider, errors } from '@vinejs/vine'
import YAML from 'yaml'
import type { ModelDefinition } from '#engine/metadata/types'
import type { ClientEntry } from '#oauth/client_definitions'
import { messagePath, type MessagesSection } from '#i18n/definition'
import type { ResourceRoleEntry, RowLevelRoleEntry } from '#security/roles_definition'
import type { UserEntry } from '#oauth/user_definitions'
import type { QueryEntry } from '#engine/queries/check'
import type { ReportEntry } from '#reports/definition'
import type { Problem } from './section.js'
import { SECTIONS, UNSUPPORTED_SECTIONS } from './sections/index.js'
import { isObject, unknownKeys } from './shape.js'

export { UNSUPPORTED_SECTIONS } from './sections/index.js'

export interface DefinitionDocument extends ModelDefinition {
  formatVersion: 1
  prune: boolean
  settings: Record<string, unknown>
  /** Undefined when the document has no `clients` section (then clients are left alone). */
  clients?: ClientEntry[]
  /** Stored translations, `{ locale: { key: text | null } }`; undefined: left alone. */
  messages?: MessagesSection
  /** Undefined when the document has no such section (then the stored ones are left alone). */
  resourceRoles?: ResourceRoleEntry[]
  rowLevelRoles?: RowLevelRoleEntry[]
  users?: UserEntry[]
  /** Named queries (app/engine/queries); undefined: the stored ones are left alone. */
  queries?: QueryEntry[]
  /** Reports (app/reports); undefined: the stored ones are left alone. */
  reports?: ReportEntry[]
}

const sectionKeys = SECTIONS.flatMap((s) => Object.entries(s.keys))

const documentValidator = vine.compile(
  vine.object({
    // Not vine.literal(1): it casts, and would accept the string "1".
    formatVersion: vine.number({ strict: true }).in([1]),
    prune: vine.boolean({ strict: true }).optional(),
    ...Object.fromEntries(sectionKeys.map(([key, { schema }]) => [key, schema.optional()])),
  })
)

const FORMAT_VERSION =
  'formatVersion must be the number 1 (the only format version this server reads)'
documentValidator.messagesProvider = new SimpleMessagesProvider({
  'formatVersion.required': FORMAT_VERSION,
  'formatVersion.number': FORMAT_VERSION,
  'formatVersion.in': FORMAT_VERSION,
})

const DOCUMENT_KEYS = [
  'formatVersion',
  'prune',
  ...sectionKeys.map(([key]) => key),
  ...UNSUPPORTED_SECTIONS,
]

function jsonPath(field: string): string {
  // Message keys contain dots themselves: `messages.<locale>.<key>`.
  const message = /^messages\.([^.]+)(?:\.(.+))?$/.exec(field)
  if (message) return messagePath(message[1], message[2])
  return (
    '$' +
    field
      .split('.')
      .map((part) => (/^\d+$/.test(part) ? `[${part}]` : `.${part}`))
      .join('')
  )
}

/** Strings (and keys) holding U+0000, which PostgreSQL text cannot store, with their paths. */
function nulCharacters(value: unknown, path: string, out: Problem[], depth = 0) {
  if (typeof value === 'string') {
    if (value.includes('\u0000')) out.push({ path, message: 'must not contain NUL characters' })
    return
  }
  if (depth > 64 || value === null || typeof value !== 'object') return
  if (Array.isArray(value)) {
    value.forEach((v, i) => nulCharacters(v, `${path}[${i}]`, out, depth + 1))
    return
  }
  for (const [key, v] of Object.entries(value)) {
    if (key.includes('\u0000')) out.push({ path, message: 'keys must not contain NUL characters' })
    else nulCharacters(v, `${path}.${key}`, out, depth + 1)
  }
}

function checkShape(raw: Record<string, unknown>, out: Problem[]) {
  nulCharacters(raw, '$', out)
  unknownKeys(raw, DOCUMENT_KEYS, '$', out)
  for (const section of UNSUPPORTED_SECTIONS) {
    if (raw[section] !== undefined) {
      out.push({
        path: `$.${section}`,
        message: `section '${section}' is not supported by this server yet; remove it to import the rest`,
      })
    }
  }
  for (const [key, { shape }] of sectionKeys) shape?.(raw[key], `$.${key}`, out)
}

export function parseDocumentText(text: string, format: 'json' | 'yaml'): unknown {
  return format === 'yaml' ? YAML.parse(text) : JSON.parse(text)
}

/**
 * `document` is set whenever the structure is usable, even when `problems` lists unknown keys or
 * unsupported sections: the orchestrator then still runs the semantic checks, so that one import
 * reports every problem of the document (a typo must not hide a wrong target).
 */
export async function validateDocument(
  raw: unknown
): Promise<{ document?: DefinitionDocument; problems: Problem[] }> {
  const problems: Problem[] = []
  if (!isObject(raw))
    return { problems: [{ path: '$', message: 'the document must be a JSON object' }] }
  checkShape(raw, problems)
  // Nothing with a NUL may reach a query (PostgreSQL refuses it): no semantic checks then.
  if (problems.some((p) => p.message.includes('NUL characters'))) return { problems }
  let valid: any
  try {
    valid = await documentValidator.validate(raw)
  } catch (error) {
    if (!(error instanceof errors.E_VALIDATION_ERROR)) throw error
    for (const m of error.messages as { field: string; message: string }[])
      problems.push({ path: jsonPath(m.field), message: m.message })
  }
  if (!valid) return { problems }
  return {
    problems,
    document: {
      ...valid,
      formatVersion: 1,
      prune: valid.prune ?? false,
      enums: valid.enums ?? [],
      entities: valid.entities ?? [],
      fetchPlans: valid.fetchPlans ?? [],
      settings: valid.settings ?? {},
    },
  }
}
