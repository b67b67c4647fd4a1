/**
 * Attribute-level rules of validateModel (validate.ts): names, columns, per-datatype keys and
 * relation shapes.
 */
import type { AttributeDefinition, EntityDefinition } from './types.js'
import { DATATYPES, RESERVED_ATTRIBUTE_NAMES, SYSTEM_ATTRIBUTES, isRelationType } from './types.js'
import { ATTRIBUTE_NAME, MAX_SQL_IDENTIFIER } from './naming.js'
import type { Model } from './model.js'

const NUMERIC = new Set(['int', 'long', 'double', 'decimal'])

type Report = (path: string, message: string) => void

export function validateAttributes(
  e: EntityDefinition,
  attrPath: (j: number) => string,
  model: Model,
  enums: Set<string>,
  report: Report
) {
  const seen = new Map<string, string>()
  const columns = new Map<string, string>(Object.entries(SYSTEM_ATTRIBUTES).map(([n, c]) => [c, n]))
  const meta = model.entity(e.name)!
  e.attributes.forEach((a, j) => {
    const ap = attrPath(j)
    if (!ATTRIBUTE_NAME.test(a.name) || a.name.length > 60)
      return report(`${ap}.name`, `invalid attribute name '${a.name}'`)
    if (RESERVED_ATTRIBUTE_NAMES.has(a.name))
      return report(`${ap}.name`, `'${a.name}' is managed by the server (id type and traits)`)
    const lower = a.name.toLowerCase()
    if (seen.has(lower))
      report(`${ap}.name`, `attribute '${a.name}' clashes with '${seen.get(lower)}'`)
    seen.set(lower, a.name)
    const column = meta.attributes.get(a.name)?.column
    // snake_case lengthens camelCase names (and relations add `_id`): check the column itself,
    // PostgreSQL would silently truncate it to 63 characters.
    if (column && column.length > MAX_SQL_IDENTIFIER)
      report(
        `${ap}.name`,
        `column '${column}' of '${a.name}' is longer than ${MAX_SQL_IDENTIFIER} characters`
      )
    if (column) {
      if (columns.has(column))
        report(
          `${ap}.name`,
          `column '${column}' of '${a.name}' is already used by '${columns.get(column)}'`
        )
      columns.set(column, a.name)
    }
    if (isRelationType(a.type)) validateRelation(e, a, ap, model, report)
    else if (!(DATATYPES as readonly string[]).includes(a.type))
      report(`${ap}.type`, `unknown type '${a.type}'`)
    else validateDatatype(a, ap, enums, report)
  })
}

function validateDatatype(a: AttributeDefinition, ap: string, enums: Set<string>, report: Report) {
  const forbid = (key: keyof AttributeDefinition, why: string) => {
    if (a[key] !== undefined) report(`${ap}.${key}`, `'${key}' ${why}`)
  }
  if (a.type !== 'string') forbid('length', 'applies to string attributes only')
  if (a.length !== undefined && (!Number.isInteger(a.length) || a.length < 1 || a.length > 10000)) {
    report(`${ap}.length`, 'length must be an integer between 1 and 10000')
  }
  if (a.type === 'decimal') {
    const precision = a.precision ?? 19
    if (!Number.isInteger(precision) || precision < 1 || precision > 38)
      report(`${ap}.precision`, 'precision must be between 1 and 38')
    const scale = a.scale ?? 2
    if (!Number.isInteger(scale) || scale < 0 || scale > precision)
      report(`${ap}.scale`, 'scale must be between 0 and the precision')
  } else {
    forbid('precision', 'applies to decimal attributes only')
    forbid('scale', 'applies to decimal attributes only')
  }
  if (a.type === 'enum') {
    if (!a.enum) report(`${ap}.enum`, "an enum attribute needs 'enum'")
    else if (!enums.has(a.enum)) report(`${ap}.enum`, `unknown enum '${a.enum}'`)
  } else forbid('enum', 'applies to enum attributes only')
  for (const key of ['min', 'max'] as const) {
    if (a[key] === undefined) continue
    if (!NUMERIC.has(a.type)) report(`${ap}.${key}`, `'${key}' applies to numeric attributes only`)
    else if (typeof a[key] !== 'number' && Number.isNaN(Number(a[key])))
      report(`${ap}.${key}`, `'${key}' must be a number`)
  }
  if (a.min !== undefined && a.max !== undefined && Number(a.min) > Number(a.max))
    report(`${ap}.min`, 'min is greater than max')
  if (a.pattern !== undefined) {
    if (a.type !== 'string' && a.type !== 'text')
      report(`${ap}.pattern`, "'pattern' applies to string and text attributes only")
    try {
      new RegExp(a.pattern, 'u')
    } catch {
      report(`${ap}.pattern`, `invalid regular expression '${a.pattern}'`)
    }
  }
  if (a.transient && (a.unique || a.mandatory))
    report(`${ap}.transient`, 'a transient attribute cannot be unique or mandatory')
  for (const key of ['target', 'cardinality', 'mappedBy', 'linkTable', 'onDelete'] as const) {
    forbid(key, 'applies to association and composition attributes only')
  }
}

function validateRelation(
  e: EntityDefinition,
  a: AttributeDefinition,
  ap: string,
  model: Model,
  report: Report
) {
  const target = a.target ? model.entity(a.target) : undefined
  if (!a.target) return report(`${ap}.target`, "a relation needs 'target'")
  if (!target) return report(`${ap}.target`, `unknown entity '${a.target}'`)
  const cardinality = a.cardinality
  if (!cardinality) return report(`${ap}.cardinality`, "a relation needs 'cardinality'")
  if (
    a.type === 'composition' &&
    (cardinality === 'MANY_TO_ONE' || cardinality === 'MANY_TO_MANY')
  ) {
    report(`${ap}.cardinality`, 'a composition is ONE_TO_MANY or ONE_TO_ONE')
  }
  for (const key of [
    'length',
    'precision',
    'scale',
    'min',
    'max',
    'pattern',
    'enum',
    'unique',
  ] as const) {
    if (a[key] !== undefined) report(`${ap}.${key}`, `'${key}' does not apply to relations`)
  }
  if (a.transient) report(`${ap}.transient`, 'relations cannot be transient')
  if (cardinality === 'ONE_TO_MANY' && !a.mappedBy)
    report(`${ap}.mappedBy`, "ONE_TO_MANY needs 'mappedBy' (the inverse MANY_TO_ONE on the target)")
  if (cardinality === 'MANY_TO_ONE' && a.mappedBy)
    report(`${ap}.mappedBy`, "MANY_TO_ONE cannot have 'mappedBy'")
  if (a.linkTable !== undefined && (cardinality !== 'MANY_TO_MANY' || a.mappedBy)) {
    report(`${ap}.linkTable`, "'linkTable' applies to the owning side of MANY_TO_MANY only")
  }
  if (
    a.mandatory &&
    (cardinality === 'ONE_TO_MANY' || cardinality === 'MANY_TO_MANY' || a.mappedBy)
  ) {
    report(`${ap}.mandatory`, 'only an owning to-one relation can be mandatory')
  }
  if (a.mappedBy) {
    const inverse = target.attributes.get(a.mappedBy)
    const expected = cardinality === 'ONE_TO_MANY' ? 'MANY_TO_ONE' : cardinality
    if (!inverse || inverse.system) {
      report(`${ap}.mappedBy`, `'${a.target}' has no attribute '${a.mappedBy}'`)
    } else if (inverse.cardinality !== expected || !inverse.owning || inverse.target !== e.name) {
      report(
        `${ap}.mappedBy`,
        `'${a.target}.${a.mappedBy}' must be an owning ${expected} relation to '${e.name}'`
      )
    }
  }
}
