/**
 * Semantic validation of a whole model definition: names, references between entities, enums
 * and fetch plans, relation shapes, per-type keys. Structural checks (types of JSON values) are
 * done earlier by the document validator; this one reports every problem with its JSON path.
 */
import type { ModelDefinition } from './types.js'
import {
  ENTITY_NAME,
  ENUM_NAME,
  FETCH_PLAN_NAME,
  MAX_SQL_IDENTIFIER,
  TABLE_NAME,
  isReservedTableName,
} from './naming.js'
import { Model } from './model.js'
import { validateExtends, validateInstanceName, validatePlanProperties } from './validate_paths.js'
import { validateAttributes } from './validate_attributes.js'

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
