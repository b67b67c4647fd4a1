/**
 * Semantic validation of a whole model definition: names, references between entities, enums
 * and fetch plans, relation shapes, per-type keys. Structural checks (types of JSON values) are
 * done earlier by the document validator; this one reports every problem with its JSON path.
 */
import type { AttributeDefinition, EntityDefinition, ModelDefinition } from './types.js'
import { DATATYPES, RESERVED_ATTRIBUTE_NAMES, SYSTEM_ATTRIBUTES, isRelationType } from './types.js'
import {
  ATTRIBUTE_NAME,
  ENTITY_NAME,
  ENUM_NAME,
  FETCH_PLAN_NAME,
  MAX_SQL_IDENTIFIER,
  TABLE_NAME,
  isReservedTableName,
} from './naming.js'
import { Model } from './model.js'
import { validateExtends, validateInstanceName, validatePlanProperties } from './validate_paths.js'

export interface Problem {
  path: string
  message: string
}

/** Where each element came from, so problems point into the document that was imported. */
export interface DefinitionPaths {
  entity(index: number): string
  /** Defaults to `<entity path>.attributes[j]`. */
  attribute?(entity: number, index: number): string
  enum(index: number): string
  fetchPlan(index: number): string
}

export const defaultPaths: DefinitionPaths = {
  entity: (i) => `$.entities[${i}]`,
  enum: (i) => `$.enums[${i}]`,
  fetchPlan: (i) => `$.fetchPlans[${i}]`,
}

const NUMERIC = new Set(['int', 'long', 'double', 'decimal'])

export function validateModel(
  def: ModelDefinition,
  paths: DefinitionPaths = defaultPaths
): Problem[] {
  const problems: Problem[] = []
  const report = (path: string, message: string) => problems.push({ path, message })
  const model = new Model(0, def)
  const enumNames = new Set<string>()

  def.enums.forEach((e, i) => {
    const p = paths.enum(i)
    if (!ENUM_NAME.test(e.name)) report(`${p}.name`, `invalid enum name '${e.name}'`)
    if (enumNames.has(e.name)) report(`${p}.name`, `duplicate enum '${e.name}'`)
    enumNames.add(e.name)
    if (e.values.length === 0) report(`${p}.values`, 'an enum needs at least one value')
    const names = new Set<string>()
    const ids = new Set<string>()
    e.values.forEach((v, j) => {
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(v.name))
        report(`${p}.values[${j}].name`, `invalid enum value name '${v.name}'`)
      if (names.has(v.name)) report(`${p}.values[${j}].name`, `duplicate enum value '${v.name}'`)
      if (ids.has(String(v.id))) report(`${p}.values[${j}].id`, `duplicate enum value id '${v.id}'`)
      names.add(v.name)
      ids.add(String(v.id))
    })
  })

  const entityNames = new Map<string, string>()
  const explicitIndexes: { name: string; path: string }[] = []
  const tables = new Map<string, string>()
  const claimTable = (table: string, owner: string, path: string) => {
    if (!TABLE_NAME.test(table) || table.length > MAX_SQL_IDENTIFIER) {
      report(
        path,
        `'${table}' is not a valid table name (lower-case letters, digits, _; at most ${MAX_SQL_IDENTIFIER})`
      )
    } else if (isReservedTableName(table)) {
      report(path, `table name '${table}' uses a prefix reserved by the server`)
    } else if (tables.has(table)) {
      report(path, `table '${table}' is already used by ${tables.get(table)}`)
    }
    tables.set(table, owner)
  }

  def.entities.forEach((e, i) => {
    const p = paths.entity(i)
    const attrPath = (j: number) => paths.attribute?.(i, j) ?? `${p}.attributes[${j}]`
    if (!ENTITY_NAME.test(e.name) || e.name.length > MAX_SQL_IDENTIFIER) {
      report(
        `${p}.name`,
        `invalid entity name '${e.name}' (letters and digits, segments joined by _ or $)`
      )
    }
    const lower = e.name.toLowerCase()
    if (entityNames.get(lower) === e.name) report(`${p}.name`, `duplicate entity '${e.name}'`)
    else if (entityNames.has(lower))
      report(
        `${p}.name`,
        `entity '${e.name}' clashes with '${entityNames.get(lower)}' (names differ only in case)`
      )
    entityNames.set(lower, e.name)
    const meta = model.entity(e.name)!
    claimTable(meta.table, `entity ${e.name}`, `${p}${e.table ? '.table' : '.name'}`)
    validateAttributes(e, attrPath, model, enumNames, report)
    for (const a of meta.attributeList) {
      if (a.linkTable) {
        const j = e.attributes.findIndex((x) => x.name === a.name)
        claimTable(
          a.linkTable.table,
          `${e.name}.${a.name}`,
          `${attrPath(j)}${a.definition?.linkTable ? '.linkTable' : '.name'}`
        )
        // Link columns are derived from the table names (`<table>_id`): PostgreSQL would silently
        // truncate a name over 63 characters, and the model would no longer match the table.
        const { ownerColumn, targetColumn } = a.linkTable
        const bad = [ownerColumn, targetColumn].find((c) => c.length > MAX_SQL_IDENTIFIER)
        if (bad)
          report(
            `${attrPath(j)}.name`,
            `link table column '${bad}' is longer than ${MAX_SQL_IDENTIFIER} characters (shorten the table names)`
          )
        else if (ownerColumn === targetColumn)
          report(
            `${attrPath(j)}.name`,
            `link table columns of '${a.name}' would both be '${ownerColumn}'`
          )
      }
    }
    if (e.instanceName !== undefined) validateInstanceName(e, `${p}.instanceName`, model, report)
    ;(e.indexes ?? []).forEach((index, j) => {
      const ip = `${p}.indexes[${j}]`
      if (index.attributes.length === 0)
        report(`${ip}.attributes`, 'an index needs at least one attribute')
      if (
        index.name !== undefined &&
        (!TABLE_NAME.test(index.name) || index.name.length > MAX_SQL_IDENTIFIER)
      ) {
        report(`${ip}.name`, `invalid index name '${index.name}'`)
      } else if (index.name !== undefined) {
        explicitIndexes.push({ name: index.name, path: `${ip}.name` })
      }
      index.attributes.forEach((name, k) => {
        const a = meta.attributes.get(name)
        if (!a) report(`${ip}.attributes[${k}]`, `unknown attribute '${name}'`)
        else if (!a.column)
          report(`${ip}.attributes[${k}]`, `attribute '${name}' has no column to index`)
      })
    })
  })

  // PostgreSQL keeps tables and indexes in one namespace; derived names use ix_/uq_/fk_.
  const indexNames = new Set<string>()
  for (const { name, path } of explicitIndexes) {
    if (/^(ix|uq|fk)_/.test(name))
      report(path, `index names starting with ix_, uq_ or fk_ are reserved`)
    else if (tables.has(name)) report(path, `index name '${name}' is already a table name`)
    else if (indexNames.has(name)) report(path, `duplicate index name '${name}'`)
    indexNames.add(name)
  }

  const planKeys = new Set<string>()
  def.fetchPlans.forEach((plan, i) => {
    const p = paths.fetchPlan(i)
    const entity = model.entity(plan.entity)
    if (!entity) return report(`${p}.entity`, `unknown entity '${plan.entity}'`)
    if (!FETCH_PLAN_NAME.test(plan.name))
      report(
        `${p}.name`,
        `invalid fetch plan name '${plan.name}' (names starting with _ are built in)`
      )
    const key = `${plan.entity}/${plan.name}`
    if (planKeys.has(key))
      report(`${p}.name`, `duplicate fetch plan '${plan.name}' of ${plan.entity}`)
    planKeys.add(key)
    if (plan.extends !== undefined)
      validateExtends(plan.entity, plan.extends, `${p}.extends`, model, report, [plan.name])
    validatePlanProperties(plan.entity, plan.properties, `${p}.properties`, model, report, 0)
  })
  return problems
}

type Report = (path: string, message: string) => void

function validateAttributes(
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
