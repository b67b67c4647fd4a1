/**
 * Declarative merge of a document into the current model. What the document names is brought
 * to the described state; what it does not name is kept, unless `prune` is set. `renamedFrom`
 * turns into rename hints so that the planner renames tables and columns instead of dropping
 * them. Pure.
 */
import type { AttributeDefinition, EntityDefinition, ModelDefinition } from '../metadata/types.js'
import { Model } from '../metadata/model.js'
import type { RenameHints } from '../schema/operations.js'
import type { DefinitionPaths } from '../metadata/validate.js'
import { collectRenames, followAttribute, followStored, type Renames } from './renames.js'

export interface MergeResult {
  model: ModelDefinition
  hints: RenameHints
  /** Entity and attribute renames (`renamedFrom`): stored translations follow them. */
  renames: Renames
  paths: DefinitionPaths
}

function withoutInstructions<T extends { renamedFrom?: string }>(item: T): T {
  const rest = { ...item }
  delete rest.renamedFrom
  return rest
}

function mergeAttributes(
  doc: EntityDefinition,
  old: EntityDefinition | undefined,
  prune: boolean,
  renames: Renames
): AttributeDefinition[] {
  const named = doc.attributes.map(withoutInstructions)
  if (!old || prune) return named
  const taken = new Set(doc.attributes.flatMap((a) => [a.name, a.renamedFrom ?? a.name]))
  return [
    ...named,
    ...old.attributes.filter((a) => !taken.has(a.name)).map((a) => followAttribute(renames, a)),
  ]
}

/**
 * A `renamedFrom` naming something the document itself also names (or that another item already
 * claims) is ignored: both would continue the same table/column, and the plan would rename a
 * column away that the model still expects. Ignoring it keeps the old item and its data.
 */
function consistentRenames(entities: EntityDefinition[]): EntityDefinition[] {
  const names = new Set(entities.map((e) => e.name))
  const claimed = new Set<string>()
  const keep = (from: string | undefined, taken: Set<string>, claims: Set<string>) =>
    from && !taken.has(from) && !claims.has(from) ? (claims.add(from), from) : undefined
  return entities.map((e) => {
    const attributes = new Set(e.attributes.map((a) => a.name))
    const claimedAttributes = new Set<string>()
    return {
      ...e,
      renamedFrom: keep(e.renamedFrom, names, claimed),
      attributes: e.attributes.map((a) => ({
        ...a,
        renamedFrom: keep(a.renamedFrom, attributes, claimedAttributes),
      })),
    }
  })
}

export function mergeDocument(
  current: ModelDefinition,
  input: ModelDefinition & { prune: boolean }
): MergeResult {
  const doc = { ...input, entities: consistentRenames(input.entities) }
  const prune = doc.prune
  const currentEntities = new Map(current.entities.map((e) => [e.name, e]))
  /** new entity name -> the current entity it continues (same name or renamedFrom). */
  const origin = new Map<string, EntityDefinition>()
  for (const e of doc.entities) {
    const old =
      currentEntities.get(e.name) ??
      (e.renamedFrom ? currentEntities.get(e.renamedFrom) : undefined)
    if (old) origin.set(e.name, old)
  }
  const consumed = new Set([...origin.values()].map((e) => e.name))
  const renames = collectRenames(doc.entities, origin)

  const entities: EntityDefinition[] = doc.entities.map((e) => ({
    ...withoutInstructions(e),
    attributes: mergeAttributes(e, origin.get(e.name), prune, renames),
  }))
  const entityPaths = doc.entities.map((_, i) => `$.entities[${i}]`)
  // Stored attributes appended to a named entity are not in the document: say so in problems.
  const attributePaths = entities.map(
    (e, i) => (j: number) =>
      j < doc.entities[i].attributes.length
        ? `$.entities[${i}].attributes[${j}]`
        : `(stored attribute ${e.name}.${e.attributes[j].name})`
  )
  const stored: EntityDefinition[] = []
  if (!prune) {
    for (const e of current.entities) {
      if (consumed.has(e.name) || doc.entities.some((d) => d.name === e.name)) continue
      stored.push({ ...e, attributes: e.attributes.map((a) => followAttribute(renames, a)) })
      entityPaths.push(`(stored entity ${e.name})`)
    }
  }
  // Stored entities and plans still use old names of what the document renames: follow them.
  const follow = followStored(renames, [...entities, ...stored])
  entities.push(...stored.map(follow.entity))

  const docEnums = new Set(doc.enums.map((e) => e.name))
  const enums = [...doc.enums]
  const enumPaths = doc.enums.map((_, i) => `$.enums[${i}]`)
  if (!prune) {
    for (const e of current.enums.filter((x) => !docEnums.has(x.name))) {
      enums.push(e)
      enumPaths.push(`(stored enum ${e.name})`)
    }
  }

  const planKey = (p: { entity: string; name: string }) => `${p.entity}/${p.name}`
  const docPlans = new Set(doc.fetchPlans.map(planKey))
  const liveEntities = new Set(entities.map((e) => e.name))
  const fetchPlans = [...doc.fetchPlans]
  const planPaths = doc.fetchPlans.map((_, i) => `$.fetchPlans[${i}]`)
  if (!prune) {
    for (const p of current.fetchPlans) {
      if (docPlans.has(planKey(p))) continue
      // Plans of a renamed entity follow it.
      const renamedTo = [...origin].find(([, old]) => old.name === p.entity)?.[0]
      const plan = renamedTo && renamedTo !== p.entity ? { ...p, entity: renamedTo } : p
      if (!liveEntities.has(plan.entity) || docPlans.has(planKey(plan))) continue
      fetchPlans.push(follow.plan(plan))
      planPaths.push(`(stored fetch plan ${planKey(p)})`)
    }
  }

  const model = { enums, entities, fetchPlans }
  return {
    model,
    hints: renameHints(current, model, doc.entities, origin),
    renames,
    paths: {
      entity: (i) => entityPaths[i],
      attribute: (i, j) => attributePaths[i]?.(j) ?? `${entityPaths[i]}.attributes[${j}]`,
      enum: (i) => enumPaths[i],
      fetchPlan: (i) => planPaths[i],
    },
  }
}

/** Table and column renames implied by renamed entities, attributes and explicit table names. */
function renameHints(
  current: ModelDefinition,
  next: ModelDefinition,
  docEntities: EntityDefinition[],
  origin: Map<string, EntityDefinition>
): RenameHints {
  const before = new Model(0, current)
  const after = new Model(0, next)
  const tables = new Map<string, string>()
  const columns = new Map<string, Map<string, string>>()
  const renameColumn = (table: string, to: string, from: string) => {
    if (to === from) return
    if (!columns.has(table)) columns.set(table, new Map())
    columns.get(table)!.set(to, from)
  }
  for (const [name, oldDef] of origin) {
    const oldEntity = before.entity(oldDef.name)
    const newEntity = after.entity(name)
    if (!oldEntity || !newEntity) continue
    if (oldEntity.table !== newEntity.table) tables.set(newEntity.table, oldEntity.table)
    const docEntity = docEntities.find((e) => e.name === name)!
    for (const a of newEntity.attributeList) {
      const renamedFrom = docEntity.attributes.find((x) => x.name === a.name)?.renamedFrom
      const oldAttr =
        oldEntity.attributes.get(a.name) ??
        (renamedFrom ? oldEntity.attributes.get(renamedFrom) : undefined)
      if (!oldAttr) continue
      if (a.column && oldAttr.column) renameColumn(newEntity.table, a.column, oldAttr.column)
      if (a.linkTable && oldAttr.linkTable) {
        if (a.linkTable.table !== oldAttr.linkTable.table)
          tables.set(a.linkTable.table, oldAttr.linkTable.table)
        renameColumn(a.linkTable.table, a.linkTable.ownerColumn, oldAttr.linkTable.ownerColumn)
        renameColumn(a.linkTable.table, a.linkTable.targetColumn, oldAttr.linkTable.targetColumn)
      }
    }
  }
  return { tables, columns }
}
