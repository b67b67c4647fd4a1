/**
 * The immutable, versioned model snapshot (the registry). Built once per model version from the
 * validated, normalized definition; everything derived from it is memoized on the snapshot
 * (`derive`), so a new version drops all derived caches at once.
 */
import { createHash } from 'node:crypto'
import { cacheStats } from '#operations/cache_stats'
import type {
  AttributeDefinition,
  Cardinality,
  Datatype,
  EntityDefinition,
  EnumDefinition,
  FetchPlanDefinition,
  IdType,
  ModelDefinition,
  OnDelete,
  Trait,
} from './types.js'
import { isRelationType } from './types.js'
import { columnNameFor, tableNameFor } from './naming.js'

export interface LinkTableMeta {
  table: string
  ownerColumn: string
  targetColumn: string
}

export interface AttributeMeta {
  name: string
  entity: string
  kind: 'datatype' | 'association' | 'composition'
  /** Datatype of a plain or system attribute; for relations the target's id type is used. */
  datatype: Datatype | null
  /** Datatype name or, for relations, the target entity name. */
  type: string
  cardinality: Cardinality | 'NONE'
  /** The attribute's own column in the entity table (null: inverse side, link table, transient). */
  column: string | null
  target: string | null
  mappedBy: string | null
  /** True when this side holds the foreign key (or the link table for many-to-many). */
  owning: boolean
  linkTable: LinkTableMeta | null
  onDelete: OnDelete
  mandatory: boolean
  unique: boolean
  transient: boolean
  readOnly: boolean
  system: boolean
  definition: AttributeDefinition | null
}

export interface EntityMeta {
  name: string
  table: string
  idType: IdType
  traits: ReadonlySet<Trait>
  instanceName: string | null
  definition: EntityDefinition
  attributes: ReadonlyMap<string, AttributeMeta>
  /** Declared attributes first, then system attributes, in a stable order. */
  attributeList: readonly AttributeMeta[]
}

function systemAttribute(entity: string, name: string, datatype: Datatype, column: string) {
  return {
    name,
    entity,
    kind: 'datatype',
    datatype,
    type: datatype,
    cardinality: 'NONE',
    column,
    target: null,
    mappedBy: null,
    owning: false,
    linkTable: null,
    onDelete: 'unlink',
    mandatory: name === 'id' || name === 'version',
    unique: name === 'id',
    transient: false,
    readOnly: true,
    system: true,
    definition: null,
  } satisfies AttributeMeta
}

function idDatatype(idType: IdType): Datatype {
  return idType === 'uuid' ? 'uuid' : idType === 'long' ? 'long' : 'string'
}

function linkTableFor(
  owner: EntityDefinition,
  a: AttributeDefinition,
  target: EntityDefinition | undefined
): LinkTableMeta {
  const ownerTable = owner.table ?? tableNameFor(owner.name)
  const targetTable = target ? (target.table ?? tableNameFor(target.name)) : 'target'
  const ownerColumn = `${ownerTable}_id`
  const targetColumn =
    targetTable === ownerTable ? `${columnNameFor(a.name)}_id` : `${targetTable}_id`
  return {
    table: a.linkTable ?? `${ownerTable}_${columnNameFor(a.name)}_link`,
    ownerColumn,
    targetColumn,
  }
}

function buildAttribute(
  entity: EntityDefinition,
  a: AttributeDefinition,
  entities: Map<string, EntityDefinition>
): AttributeMeta {
  const relation = isRelationType(a.type)
  const cardinality = relation ? (a.cardinality ?? 'MANY_TO_ONE') : 'NONE'
  const owning =
    relation &&
    (cardinality === 'MANY_TO_ONE' ||
      ((cardinality === 'ONE_TO_ONE' || cardinality === 'MANY_TO_MANY') && !a.mappedBy))
  const target = relation ? (a.target ?? null) : null
  const targetDef = target ? entities.get(target) : undefined
  let column: string | null = null
  if (!a.transient) {
    if (!relation) column = columnNameFor(a.name)
    else if (owning && cardinality !== 'MANY_TO_MANY') column = `${columnNameFor(a.name)}_id`
  }
  return {
    name: a.name,
    entity: entity.name,
    kind: relation ? (a.type as 'association' | 'composition') : 'datatype',
    datatype: relation
      ? targetDef
        ? idDatatype(targetDef.idType ?? 'uuid')
        : null
      : (a.type as Datatype),
    type: relation ? (target ?? '') : a.type,
    cardinality,
    column,
    target,
    mappedBy: a.mappedBy ?? null,
    owning,
    linkTable: owning && cardinality === 'MANY_TO_MANY' ? linkTableFor(entity, a, targetDef) : null,
    onDelete: a.onDelete ?? 'unlink',
    mandatory: !!a.mandatory,
    unique: !!a.unique,
    transient: !!a.transient,
    readOnly: !!a.readOnly,
    system: false,
    definition: a,
  }
}

function buildEntity(e: EntityDefinition, entities: Map<string, EntityDefinition>): EntityMeta {
  const idType = e.idType ?? 'uuid'
  const traits = new Set(e.traits ?? [])
  const list: AttributeMeta[] = [systemAttribute(e.name, 'id', idDatatype(idType), 'id')]
  for (const a of e.attributes) list.push(buildAttribute(e, a, entities))
  if (traits.has('versioned')) list.push(systemAttribute(e.name, 'version', 'int', 'version'))
  if (traits.has('audited')) {
    list.push(systemAttribute(e.name, 'createdBy', 'string', 'created_by'))
    list.push(systemAttribute(e.name, 'createdDate', 'offsetDateTime', 'created_date'))
    list.push(systemAttribute(e.name, 'lastModifiedBy', 'string', 'last_modified_by'))
    list.push(systemAttribute(e.name, 'lastModifiedDate', 'offsetDateTime', 'last_modified_date'))
  }
  if (traits.has('softDelete')) {
    list.push(systemAttribute(e.name, 'deletedBy', 'string', 'deleted_by'))
    list.push(systemAttribute(e.name, 'deletedDate', 'offsetDateTime', 'deleted_date'))
  }
  return {
    name: e.name,
    table: e.table ?? tableNameFor(e.name),
    idType,
    traits,
    instanceName: e.instanceName ?? null,
    definition: e,
    attributes: new Map(list.map((a) => [a.name, a])),
    attributeList: list,
  }
}

export class Model {
  readonly entities: ReadonlyMap<string, EntityMeta>
  readonly enums: ReadonlyMap<string, EnumDefinition>
  readonly fetchPlans: ReadonlyMap<string, ReadonlyMap<string, FetchPlanDefinition>>
  readonly checksum: string
  #derived = new Map<string, unknown>()

  constructor(
    readonly version: number,
    readonly definition: ModelDefinition
  ) {
    const defs = new Map(definition.entities.map((e) => [e.name, e]))
    this.entities = new Map(definition.entities.map((e) => [e.name, buildEntity(e, defs)]))
    this.enums = new Map(definition.enums.map((e) => [e.name, e]))
    const plans = new Map<string, Map<string, FetchPlanDefinition>>()
    for (const p of definition.fetchPlans) {
      if (!plans.has(p.entity)) plans.set(p.entity, new Map())
      plans.get(p.entity)!.set(p.name, p)
    }
    this.fetchPlans = plans
    this.checksum = modelChecksum(definition)
    Object.freeze(this.definition)
  }

  entity(name: string): EntityMeta | undefined {
    return this.entities.get(name)
  }

  /** Memoizes something derived from this model version (validators, plans, documents). */
  derive<T>(key: string, compute: (model: Model) => T): T {
    if (this.#derived.has(key)) cacheStats.model.hits++
    else {
      cacheStats.model.misses++
      this.#derived.set(key, compute(this))
    }
    return this.#derived.get(key) as T
  }
}

export function modelChecksum(definition: ModelDefinition): string {
  return createHash('sha256').update(JSON.stringify(definition)).digest('hex').slice(0, 16)
}
