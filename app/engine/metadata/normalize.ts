/**
 * Canonical form of a model definition: defaults filled in where they change meaning,
 * import-only instructions removed, keys in a fixed order. Two definitions describe the same
 * model exactly when their normalized forms are deep-equal, which is what makes
 * export -> import a no-op.
 */
import type {
  AttributeDefinition,
  EntityDefinition,
  EnumDefinition,
  FetchPlanDefinition,
  FetchPlanProperty,
  IndexDefinition,
  InlineFetchPlan,
  ModelDefinition,
} from './types.js'
import { TRAITS, isRelationType } from './types.js'
import { tableNameFor } from './naming.js'

function clean<T extends object>(value: T): T {
  const out: Record<string, unknown> = {}
  for (const [key, v] of Object.entries(value)) {
    if (v === undefined || v === null) continue
    if (Array.isArray(v) && v.length === 0 && !['attributes', 'values', 'properties'].includes(key))
      continue
    if (typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 0) continue
    out[key] = v
  }
  return out as T
}

/**
 * The store keeps min/max as text and reads numeric ones back as numbers (store.ts): normalize
 * the same way, or re-importing a document with `"min": "0"` would be a change every time.
 */
const bound = (v: number | string | undefined) =>
  typeof v === 'string' && !Number.isNaN(Number(v)) ? Number(v) : v

export function normalizeAttribute(a: AttributeDefinition): AttributeDefinition {
  const relation = isRelationType(a.type)
  return clean<AttributeDefinition>({
    name: a.name,
    type: a.type,
    length: a.length,
    precision: a.precision,
    scale: a.scale,
    mandatory: a.mandatory || undefined,
    unique: a.unique || undefined,
    min: bound(a.min),
    max: bound(a.max),
    pattern: a.pattern,
    enum: a.enum,
    target: a.target,
    cardinality: a.cardinality,
    mappedBy: a.mappedBy,
    linkTable: a.linkTable,
    onDelete: relation && a.onDelete !== 'unlink' ? a.onDelete : undefined,
    transient: a.transient || undefined,
    readOnly: a.readOnly || undefined,
    caption: a.caption,
    description: a.description,
  })
}

function normalizeIndex(index: IndexDefinition): IndexDefinition {
  return clean<IndexDefinition>({
    attributes: [...index.attributes],
    unique: index.unique || undefined,
    name: index.name,
  })
}

export function normalizeEntity(e: EntityDefinition): EntityDefinition {
  const traits = TRAITS.filter((t) => e.traits?.includes(t))
  return clean<EntityDefinition>({
    name: e.name,
    table: e.table === tableNameFor(e.name) ? undefined : e.table,
    caption: e.caption,
    description: e.description,
    idType: e.idType && e.idType !== 'uuid' ? e.idType : undefined,
    traits,
    instanceName: e.instanceName,
    attributes: e.attributes.map(normalizeAttribute),
    indexes: (e.indexes ?? []).map(normalizeIndex),
  })
}

export function normalizeEnum(e: EnumDefinition): EnumDefinition {
  return clean<EnumDefinition>({
    name: e.name,
    caption: e.caption,
    description: e.description,
    values: e.values.map((v) => clean({ name: v.name, id: String(v.id), caption: v.caption })),
  })
}

function normalizeProperty(p: FetchPlanProperty): FetchPlanProperty {
  if (typeof p === 'string') return p
  if (p.fetchPlan === undefined) return p.name
  if (typeof p.fetchPlan === 'string') return { name: p.name, fetchPlan: p.fetchPlan }
  return { name: p.name, fetchPlan: normalizeInlinePlan(p.fetchPlan) }
}

function normalizeInlinePlan(plan: InlineFetchPlan): InlineFetchPlan {
  return clean<InlineFetchPlan>({
    extends: plan.extends,
    properties: plan.properties.map(normalizeProperty),
  })
}

export function normalizeFetchPlan(p: FetchPlanDefinition): FetchPlanDefinition {
  return clean<FetchPlanDefinition>({
    entity: p.entity,
    name: p.name,
    extends: p.extends,
    properties: (p.properties ?? []).map(normalizeProperty),
  })
}

export function normalizeModel(model: ModelDefinition): ModelDefinition {
  return {
    enums: model.enums.map(normalizeEnum),
    entities: model.entities.map(normalizeEntity),
    fetchPlans: model.fetchPlans.map(normalizeFetchPlan),
  }
}

export const EMPTY_MODEL: ModelDefinition = Object.freeze({
  enums: [],
  entities: [],
  fetchPlans: [],
}) as ModelDefinition
