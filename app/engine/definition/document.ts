/**
 * The application definition document (spec/app-definition.md): parsing (JSON or YAML) and
 * structural validation with VineJS. Every problem is reported with its JSON path; unknown keys
 * are problems too (a misspelt `mandatroy` must not be silently ignored).
 */
import vine, { SimpleMessagesProvider, errors } from '@vinejs/vine'
import YAML from 'yaml'
import type { ModelDefinition } from '../metadata/types.js'
import { CARDINALITIES, ID_TYPES, ON_DELETE, TRAITS } from '../metadata/types.js'
import type { Problem } from '../metadata/validate.js'
import type { ClientEntry } from '../../oauth/client_definitions.js'
import { messagePath, type MessagesSection } from '../../i18n/definition.js'
import type { ResourceRoleEntry, RowLevelRoleEntry } from '../../security/roles_definition.js'
import type { UserEntry } from '../../oauth/user_definitions.js'

export interface DefinitionDocument extends ModelDefinition {
  formatVersion: 1
  prune: boolean
  settings: Record<string, unknown>
  /** Undefined when the document has no `clients` section (then clients are left alone). */
  clients?: ClientEntry[]
  /**
   * Stored translations, `{ locale: { key: text | null } }` (app/i18n/definition.ts). Undefined
   * when the document has no `messages` section (then they are left alone).
   */
  messages?: MessagesSection
  /** Undefined when the document has no such section (then the stored ones are left alone). */
  resourceRoles?: ResourceRoleEntry[]
  rowLevelRoles?: RowLevelRoleEntry[]
  users?: UserEntry[]
}

/** Sections that other capabilities own; rejected until those capabilities exist. */
export const UNSUPPORTED_SECTIONS = ['queries', 'reports']

const caption = vine.record(vine.string())
const str = () => vine.string().trim().minLength(1)
const int = () => vine.number({ strict: true }).withoutDecimals()
const bool = () => vine.boolean({ strict: true })
// String first: the number branch claims numeric-looking strings ("0") and then rejects them
// for not being numbers, while "abc" was accepted as a string.
const numberOrString = () => vine.unionOfTypes([vine.string(), vine.number({ strict: true })])

const attribute = vine.object({
  name: str(),
  type: str(),
  length: int().optional(),
  precision: int().optional(),
  scale: int().optional(),
  mandatory: bool().optional(),
  unique: bool().optional(),
  min: numberOrString().optional(),
  max: numberOrString().optional(),
  pattern: vine.string().optional(),
  enum: str().optional(),
  target: str().optional(),
  cardinality: vine.enum(CARDINALITIES).optional(),
  mappedBy: str().optional(),
  linkTable: str().optional(),
  onDelete: vine.enum(ON_DELETE).optional(),
  transient: bool().optional(),
  readOnly: bool().optional(),
  caption: caption.optional(),
  description: vine.string().optional(),
  renamedFrom: str().optional(),
})

const entity = vine.object({
  name: str(),
  table: str().optional(),
  caption: caption.optional(),
  description: vine.string().optional(),
  idType: vine.enum(ID_TYPES).optional(),
  traits: vine.array(vine.enum(TRAITS)).optional(),
  instanceName: str().optional(),
  attributes: vine.array(attribute),
  indexes: vine
    .array(
      vine.object({
        attributes: vine.array(str()),
        unique: bool().optional(),
        name: str().optional(),
      })
    )
    .optional(),
  renamedFrom: str().optional(),
})

const enumeration = vine.object({
  name: str(),
  caption: caption.optional(),
  description: vine.string().optional(),
  values: vine.array(
    vine.object({
      name: str(),
      id: vine.unionOfTypes([vine.string(), vine.number({ strict: true })]),
      caption: caption.optional(),
    })
  ),
})

const fetchPlan = vine.object({
  entity: str(),
  name: str(),
  extends: str().optional(),
  properties: vine.array(vine.any()),
})

const strings = () => vine.array(vine.string())
/** Enumerations, durations and URIs are checked by the client rules (app/oauth/client_rules). */
const client = vine.object({
  clientId: str(),
  clientSecret: vine.string().optional(),
  clientSecretHash: vine.string().optional(),
  authenticationMethods: strings().optional(),
  grantTypes: strings().optional(),
  redirectUris: strings().optional(),
  requireProofKey: bool().optional(),
  accessTokenFormat: vine.string().optional(),
  accessTokenTimeToLive: vine.string().optional(),
  refreshTokenTimeToLive: vine.string().optional(),
  resourceRoles: strings().optional(),
  rowLevelRoles: strings().optional(),
})

/** Enumerations, codes and filters are checked by app/security/roles_definition. */
const resourceRole = vine.object({
  code: str(),
  name: vine.string().optional(),
  description: vine.string().optional(),
  scopes: strings().optional(),
  childRoles: strings().optional(),
  entityPolicies: vine.array(vine.object({ entity: str(), actions: strings() })).optional(),
  attributePolicies: vine
    .array(vine.object({ entity: str(), attributes: strings(), action: vine.string() }))
    .optional(),
  specificPolicies: strings().optional(),
})

const rowLevelPolicy = vine.object({
  entity: str(),
  type: vine.string(),
  actions: strings(),
  filter: vine.any(),
})

const rowLevelRole = vine.object({
  code: str(),
  name: vine.string().optional(),
  description: vine.string().optional(),
  policies: vine.array(rowLevelPolicy).optional(),
})

const optionalText = () => vine.string().nullable().optional()
/** Field rules (username, e-mail, locale, time zone, password) are in app/oauth/accounts. */
const user = vine.object({
  username: str(),
  password: vine.string().optional(),
  passwordHash: vine.string().optional(),
  firstName: optionalText(),
  lastName: optionalText(),
  email: optionalText(),
  locale: optionalText(),
  timeZone: optionalText(),
  active: bool().optional(),
  resourceRoles: strings().optional(),
  rowLevelRoles: strings().optional(),
})

const documentValidator = vine.compile(
  vine.object({
    // Not vine.literal(1): it casts, and would accept the string "1".
    formatVersion: vine.number({ strict: true }).in([1]),
    prune: bool().optional(),
    enums: vine.array(enumeration).optional(),
    entities: vine.array(entity).optional(),
    fetchPlans: vine.array(fetchPlan).optional(),
    // null removes a stored setting (writeSettings); vine.any() alone rejects null.
    settings: vine.record(vine.any().nullable()).optional(),
    clients: vine.array(client).optional(),
    // locale -> key -> text (null removes a stored translation); semantics in app/i18n.
    messages: vine.record(vine.record(vine.string().nullable())).optional(),
    resourceRoles: vine.array(resourceRole).optional(),
    rowLevelRoles: vine.array(rowLevelRole).optional(),
    users: vine.array(user).optional(),
  })
)

const FORMAT_VERSION =
  'formatVersion must be the number 1 (the only format version this server reads)'
documentValidator.messagesProvider = new SimpleMessagesProvider({
  'formatVersion.required': FORMAT_VERSION,
  'formatVersion.number': FORMAT_VERSION,
  'formatVersion.in': FORMAT_VERSION,
})

/** Keys each object kind may carry; anything else is reported. */
const ALLOWED_KEYS: Record<string, string[]> = {
  document: [
    'formatVersion',
    'prune',
    'enums',
    'entities',
    'fetchPlans',
    'settings',
    'clients',
    'messages',
    'resourceRoles',
    'rowLevelRoles',
    'users',
    ...UNSUPPORTED_SECTIONS,
  ],
  entity: [
    'name',
    'table',
    'caption',
    'description',
    'idType',
    'traits',
    'instanceName',
    'attributes',
    'indexes',
    'renamedFrom',
  ],
  attribute: Object.keys(attribute.getProperties()),
  index: ['attributes', 'unique', 'name'],
  enum: ['name', 'caption', 'description', 'values'],
  enumValue: ['name', 'id', 'caption'],
  fetchPlan: ['entity', 'name', 'extends', 'properties'],
  planProperty: ['name', 'fetchPlan'],
  inlinePlan: ['extends', 'properties'],
  client: Object.keys(client.getProperties()),
  resourceRole: Object.keys(resourceRole.getProperties()),
  entityPolicy: ['entity', 'actions'],
  attributePolicy: ['entity', 'attributes', 'action'],
  rowLevelRole: Object.keys(rowLevelRole.getProperties()),
  rowLevelPolicy: Object.keys(rowLevelPolicy.getProperties()),
  user: Object.keys(user.getProperties()),
}

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

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

function unknownKeys(value: unknown, kind: string, path: string, out: Problem[]) {
  if (!isObject(value)) return
  for (const key of Object.keys(value)) {
    if (!ALLOWED_KEYS[kind].includes(key))
      out.push({ path: `${path}.${key}`, message: `unknown property '${key}'` })
  }
}

function checkPlanProperties(properties: unknown, path: string, out: Problem[]) {
  if (!Array.isArray(properties)) return out.push({ path, message: 'must be an array' })
  properties.forEach((p, i) => {
    const pp = `${path}[${i}]`
    if (typeof p === 'string') return
    if (!isObject(p) || typeof p.name !== 'string')
      return out.push({ path: pp, message: 'must be an attribute name or { "name", "fetchPlan" }' })
    unknownKeys(p, 'planProperty', pp, out)
    if (p.fetchPlan === undefined || typeof p.fetchPlan === 'string') return
    if (!isObject(p.fetchPlan))
      return out.push({ path: `${pp}.fetchPlan`, message: 'must be a plan name or an inline plan' })
    unknownKeys(p.fetchPlan, 'inlinePlan', `${pp}.fetchPlan`, out)
    if (p.fetchPlan.extends !== undefined && typeof p.fetchPlan.extends !== 'string') {
      out.push({ path: `${pp}.fetchPlan.extends`, message: 'must be a plan name' })
    }
    checkPlanProperties(p.fetchPlan.properties, `${pp}.fetchPlan.properties`, out)
  })
}

function checkShape(raw: Record<string, unknown>, out: Problem[]) {
  unknownKeys(raw, 'document', '$', out)
  for (const section of UNSUPPORTED_SECTIONS) {
    if (raw[section] !== undefined) {
      out.push({
        path: `$.${section}`,
        message: `section '${section}' is not supported by this server yet; remove it to import the rest`,
      })
    }
  }
  const each = (key: string, fn: (item: any, path: string) => void) => {
    if (Array.isArray(raw[key]))
      (raw[key] as unknown[]).forEach((item, i) => fn(item, `$.${key}[${i}]`))
  }
  each('entities', (e, p) => {
    unknownKeys(e, 'entity', p, out)
    if (Array.isArray(e?.attributes))
      e.attributes.forEach((a: unknown, j: number) =>
        unknownKeys(a, 'attribute', `${p}.attributes[${j}]`, out)
      )
    if (Array.isArray(e?.indexes))
      e.indexes.forEach((x: unknown, j: number) =>
        unknownKeys(x, 'index', `${p}.indexes[${j}]`, out)
      )
  })
  each('enums', (e, p) => {
    unknownKeys(e, 'enum', p, out)
    if (Array.isArray(e?.values))
      e.values.forEach((v: unknown, j: number) =>
        unknownKeys(v, 'enumValue', `${p}.values[${j}]`, out)
      )
  })
  each('clients', (c, p) => unknownKeys(c, 'client', p, out))
  const nested = (item: any, key: string, kind: string, path: string) => {
    if (Array.isArray(item?.[key]))
      item[key].forEach((x: unknown, j: number) =>
        unknownKeys(x, kind, `${path}.${key}[${j}]`, out)
      )
  }
  each('resourceRoles', (r, p) => {
    unknownKeys(r, 'resourceRole', p, out)
    nested(r, 'entityPolicies', 'entityPolicy', p)
    nested(r, 'attributePolicies', 'attributePolicy', p)
  })
  each('rowLevelRoles', (r, p) => {
    unknownKeys(r, 'rowLevelRole', p, out)
    nested(r, 'policies', 'rowLevelPolicy', p)
  })
  each('users', (u, p) => unknownKeys(u, 'user', p, out))
  each('fetchPlans', (f, p) => {
    unknownKeys(f, 'fetchPlan', p, out)
    if (isObject(f)) checkPlanProperties(f.properties, `${p}.properties`, out)
  })
}

export function parseDocumentText(text: string, format: 'json' | 'yaml'): unknown {
  return format === 'yaml' ? YAML.parse(text) : JSON.parse(text)
}

/**
 * `document` is set whenever the structure is usable, even when `problems` lists unknown keys or
 * unsupported sections: the importer then still runs the semantic checks, so that one import
 * reports every problem of the document (a typo must not hide a wrong target).
 */
export async function validateDocument(
  raw: unknown
): Promise<{ document?: DefinitionDocument; problems: Problem[] }> {
  const problems: Problem[] = []
  if (!isObject(raw))
    return { problems: [{ path: '$', message: 'the document must be a JSON object' }] }
  checkShape(raw, problems)
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
      formatVersion: 1,
      prune: valid.prune ?? false,
      enums: valid.enums ?? [],
      entities: valid.entities ?? [],
      fetchPlans: (valid.fetchPlans ?? []).map((p: any) => ({ ...p, properties: p.properties })),
      settings: valid.settings ?? {},
      clients: valid.clients,
      messages: valid.messages,
      resourceRoles: valid.resourceRoles,
      rowLevelRoles: valid.rowLevelRoles,
      users: valid.users,
    },
  }
}
