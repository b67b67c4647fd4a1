/*
 * What the definition format allows per attribute type (README "Definition format",
 * app/engine/metadata/validate_attributes.ts): which keys a type takes, and the plain words the
 * designer shows for them. The server stays the judge (a dry run validates every change); this
 * only decides which fields the attribute editor offers.
 */
import type { ModelAttribute } from '../../../lib/model'

export const DATATYPE_GROUPS: {
  label: string
  types: { type: string; label: string; hint: string }[]
}[] = [
  {
    label: 'Text',
    types: [
      { type: 'string', label: 'String', hint: 'Short text with a maximum length (varchar)' },
      { type: 'text', label: 'Text', hint: 'Long text without a length limit' },
    ],
  },
  {
    label: 'Numbers',
    types: [
      { type: 'int', label: 'Integer', hint: '32-bit whole number' },
      { type: 'long', label: 'Long', hint: '64-bit whole number' },
      { type: 'double', label: 'Double', hint: 'Floating-point number' },
      { type: 'decimal', label: 'Decimal', hint: 'Exact number with precision and scale (money)' },
    ],
  },
  {
    label: 'Date and time',
    types: [
      { type: 'date', label: 'Date', hint: 'A calendar day (yyyy-MM-dd)' },
      { type: 'time', label: 'Time', hint: 'A time of day (HH:mm:ss)' },
      { type: 'dateTime', label: 'Date and time', hint: 'Local date and time, no zone' },
      {
        type: 'offsetDateTime',
        label: 'Date and time with offset',
        hint: 'A moment with its UTC offset',
      },
    ],
  },
  {
    label: 'Other',
    types: [
      { type: 'boolean', label: 'Boolean', hint: 'true or false' },
      { type: 'uuid', label: 'UUID', hint: 'A universally unique identifier' },
      { type: 'enum', label: 'Enum', hint: 'One value of an enumeration (stores the value id)' },
      { type: 'file', label: 'File', hint: 'A file reference (Files API)' },
      { type: 'json', label: 'JSON', hint: 'Any JSON document' },
    ],
  },
  {
    label: 'Relations',
    types: [
      { type: 'association', label: 'Association', hint: 'A reference to rows of another entity' },
      {
        type: 'composition',
        label: 'Composition',
        hint: 'Owned child rows, deleted with their parent',
      },
    ],
  },
]

const ALL = DATATYPE_GROUPS.flatMap((g) => g.types)
export const typeLabel = (type: string) => ALL.find((t) => t.type === type)?.label ?? type
export const typeHint = (type: string) => ALL.find((t) => t.type === type)?.hint

export const isRelationType = (type: string) => type === 'association' || type === 'composition'
const NUMERIC = new Set(['int', 'long', 'double', 'decimal'])
export const isNumeric = (type: string) => NUMERIC.has(type)
export const isWhole = (type: string) => type === 'int' || type === 'long'

/** The type-specific keys a type takes (beyond name, type, caption, description). */
export function keysFor(type: string): string[] {
  if (isRelationType(type))
    return ['target', 'cardinality', 'mappedBy', 'linkTable', 'onDelete', 'mandatory']
  const keys = ['mandatory', 'unique', 'readOnly', 'transient']
  if (type === 'string') keys.push('length', 'pattern')
  if (type === 'text') keys.push('pattern')
  if (isNumeric(type)) keys.push('min', 'max')
  if (type === 'decimal') keys.push('precision', 'scale')
  if (type === 'enum') keys.push('enum')
  return keys
}

const COMMON = ['name', 'type', 'caption', 'description']

/** The attribute without the keys its (new) type does not take: a type switch keeps what fits. */
export function cleanForType(attribute: ModelAttribute): ModelAttribute {
  const keep = new Set([...COMMON, ...keysFor(attribute.type)])
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(attribute))
    if (keep.has(key) && value !== undefined) out[key] = value
  if (
    attribute.type === 'composition' &&
    (out.cardinality === 'MANY_TO_ONE' || out.cardinality === 'MANY_TO_MANY')
  )
    out.cardinality = 'ONE_TO_MANY'
  return out as ModelAttribute
}

/**
 * The attribute as it is sent: unknown/irrelevant keys dropped, empty strings and false flags
 * left out (the format's defaults), empty captions removed.
 */
export function toDefinition(attribute: ModelAttribute): ModelAttribute {
  const cleaned = cleanForType(attribute) as Record<string, unknown>
  for (const [key, value] of Object.entries(cleaned)) {
    if (value === '' || value === false || value === null) delete cleaned[key]
  }
  if (cleaned.caption && typeof cleaned.caption === 'object') {
    const caption = Object.fromEntries(
      Object.entries(cleaned.caption as Record<string, string>).filter(([, v]) => v.trim() !== '')
    )
    if (Object.keys(caption).length) cleaned.caption = caption
    else delete cleaned.caption
  }
  const cardinality = cleaned.cardinality
  if (cardinality === 'MANY_TO_ONE') delete cleaned.mappedBy
  if (cardinality !== 'MANY_TO_MANY' || cleaned.mappedBy) delete cleaned.linkTable
  if (cleaned.mappedBy || cardinality === 'ONE_TO_MANY' || cardinality === 'MANY_TO_MANY')
    delete cleaned.mandatory
  return cleaned as ModelAttribute
}

export const CARDINALITY_INFO: Record<string, { label: string; hint: string }> = {
  MANY_TO_ONE: {
    label: 'Many to one',
    hint: 'Each row points to one target row (a foreign key column)',
  },
  ONE_TO_ONE: { label: 'One to one', hint: 'One target row at most, on one side only' },
  ONE_TO_MANY: {
    label: 'One to many',
    hint: 'A list of target rows that point back here (needs the inverse)',
  },
  MANY_TO_MANY: { label: 'Many to many', hint: 'A list through a link table' },
}

export const ON_DELETE_INFO: Record<string, string> = {
  unlink: 'Unlink: deleting the target clears the reference (default)',
  cascade: 'Cascade: deleting the target deletes these rows too',
  deny: 'Deny: a target that is still referenced cannot be deleted',
}

/** One line that says what the attribute is ("string(50), pattern", "→ Customer, many to one"). */
export function attributeSummary(a: ModelAttribute): string {
  if (isRelationType(a.type)) {
    const card = CARDINALITY_INFO[a.cardinality ?? '']?.label.toLowerCase() ?? ''
    return [
      `→ ${a.target ?? '?'}`,
      card,
      a.mappedBy ? `mapped by ${a.mappedBy}` : '',
      a.onDelete ? `on delete ${a.onDelete}` : '',
    ]
      .filter(Boolean)
      .join(', ')
  }
  const parts: string[] = []
  if (a.type === 'string') parts.push(`length ${String(a.length ?? 255)}`)
  if (a.type === 'decimal') parts.push(`precision ${String(a.precision ?? 19)}, scale ${String(a.scale ?? 2)}`)
  if (a.type === 'enum') parts.push(String(a.enum ?? '?'))
  if (a.min !== undefined) parts.push(`min ${String(a.min)}`)
  if (a.max !== undefined) parts.push(`max ${String(a.max)}`)
  if (a.pattern) parts.push(`pattern ${String(a.pattern)}`)
  return parts.join(', ')
}

/** Attributes the server adds for the id type and traits (shown greyed in the table). */
export function systemAttributes(
  traits: string[] = [],
  idType = 'uuid'
): { name: string; type: string; why: string }[] {
  const out = [{ name: 'id', type: idType, why: 'identifier' }]
  if (traits.includes('versioned')) out.push({ name: 'version', type: 'int', why: 'versioned' })
  if (traits.includes('audited'))
    out.push(
      { name: 'createdBy', type: 'string', why: 'audited' },
      { name: 'createdDate', type: 'dateTime', why: 'audited' },
      { name: 'lastModifiedBy', type: 'string', why: 'audited' },
      { name: 'lastModifiedDate', type: 'dateTime', why: 'audited' }
    )
  if (traits.includes('softDelete'))
    out.push(
      { name: 'deletedBy', type: 'string', why: 'softDelete' },
      { name: 'deletedDate', type: 'dateTime', why: 'softDelete' }
    )
  return out
}
