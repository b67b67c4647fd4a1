/**
 * The metadata API's documents (reference 8.1-8.4, spec 2.3-2.5): entity, fetch-plan, enum and
 * datatype descriptions in the upstream JSON shapes. The locale-independent part is built once
 * per model version (`model.derive`); captions and visibility are applied per request through a
 * `MetadataViewer` (the caller wires in the i18n captions and the security hooks), so an edited
 * translation or a permission never needs a cache flush here.
 */
import type { AttributeMeta, Model } from './model.js'
import type { Datatype } from './types.js'
import {
  type FetchPlanDescription,
  type PlanNode,
  describeFetchPlan,
  fetchPlanNames,
  filterFetchPlan,
  resolveFetchPlan,
} from '../query/fetch_plans.js'

/** Our datatypes under their upstream (Jmix) datatype ids. */
export const UPSTREAM_DATATYPE: Readonly<Record<Exclude<Datatype, 'enum'>, string>> = {
  string: 'string',
  text: 'string',
  uuid: 'uuid',
  int: 'int',
  long: 'long',
  double: 'double',
  decimal: 'decimal',
  boolean: 'boolean',
  date: 'localDate',
  time: 'localTime',
  dateTime: 'localDateTime',
  offsetDateTime: 'offsetDateTime',
  file: 'fileRef',
  // No upstream counterpart: published as a custom datatype id (listed by /metadata/datatypes).
  json: 'json',
}

/** Who is looking, in which language: captions and the security hooks of one request. */
export interface MetadataViewer {
  caption(key: string): string
  canRead(entity: string): boolean
  canView(entity: string, attribute: string): boolean
}

export type AttributeType = 'DATATYPE' | 'ENUM' | 'ASSOCIATION' | 'COMPOSITION'

export interface PropertyDescription {
  name: string
  attributeType: AttributeType
  type: string
  cardinality: AttributeMeta['cardinality']
  mandatory: boolean
  readOnly: boolean
  description: string
  persistent: boolean
  transient: boolean
}

export interface EntityDescription {
  entityName: string
  ancestor: string | null
  properties: PropertyDescription[]
}

export interface EnumDescription {
  name: string
  values: { name: string; id: string; caption: string }[]
}

export interface DatatypeDescription {
  id: string
  name: string
  [parameter: string]: string
}

interface PropertyShape extends Omit<PropertyDescription, 'description'> {
  /** The related entity (references only), for the visibility check. */
  target: string | null
}

function attributeType(a: AttributeMeta): AttributeType {
  if (a.kind === 'association') return 'ASSOCIATION'
  if (a.kind === 'composition') return 'COMPOSITION'
  return a.datatype === 'enum' ? 'ENUM' : 'DATATYPE'
}

function typeOf(a: AttributeMeta): string {
  if (a.kind !== 'datatype') return a.target ?? a.type
  if (a.datatype === 'enum') return a.definition?.enum ?? 'enum'
  return a.datatype ? UPSTREAM_DATATYPE[a.datatype] : a.type
}

function propertyShape(a: AttributeMeta): PropertyShape {
  return {
    name: a.name,
    attributeType: attributeType(a),
    type: typeOf(a),
    cardinality: a.cardinality,
    // System attributes appear as upstream shows them: id and version mandatory (NOT NULL
    // columns), none read-only (upstream readOnly means "no setter", which they all have).
    mandatory: a.mandatory,
    readOnly: a.system ? false : a.readOnly,
    persistent: !a.transient,
    transient: a.transient,
    target: a.kind === 'datatype' ? null : a.target,
  }
}

function entityShapes(model: Model): ReadonlyMap<string, PropertyShape[]> {
  return model.derive('metadata:entityShapes', (m) => {
    const shapes = new Map<string, PropertyShape[]>()
    for (const entity of m.entities.values())
      shapes.set(entity.name, entity.attributeList.map(propertyShape))
    return shapes
  })
}

/** Whether the entity exists and the viewer may see it (otherwise it is "not found"). */
export function entityVisible(model: Model, entityName: string, viewer: MetadataViewer): boolean {
  return model.entities.has(entityName) && viewer.canRead(entityName)
}

function visibleProperty(
  entity: string,
  p: { name: string; target: string | null },
  viewer: MetadataViewer
) {
  return viewer.canView(entity, p.name) && (p.target === null || viewer.canRead(p.target))
}

function render(model: Model, entityName: string, viewer: MetadataViewer): EntityDescription {
  const properties: PropertyDescription[] = []
  for (const { target, ...shape } of entityShapes(model).get(entityName) ?? []) {
    if (!visibleProperty(entityName, { name: shape.name, target }, viewer)) continue
    const { persistent, transient, ...head } = shape
    const description = viewer.caption(`${entityName}.${shape.name}`)
    properties.push({ ...head, description, persistent, transient })
  }
  return { entityName, ancestor: null, properties }
}

/** `/metadata/entities/{name}`; null when unknown or not readable. */
export function describeEntity(
  model: Model,
  entityName: string,
  viewer: MetadataViewer
): EntityDescription | null {
  return entityVisible(model, entityName, viewer) ? render(model, entityName, viewer) : null
}

/** `/metadata/entities`: every readable entity, in definition order. */
export function describeEntities(model: Model, viewer: MetadataViewer): EntityDescription[] {
  return [...model.entities.keys()]
    .filter((name) => viewer.canRead(name))
    .map((name) => render(model, name, viewer))
}

function visiblePlan(plan: PlanNode, viewer: MetadataViewer): PlanNode {
  return filterFetchPlan(plan, (entity, attribute, nested) =>
    visibleProperty(entity, { name: attribute, target: nested?.entity ?? null }, viewer)
  )
}

/**
 * `/metadata/entities/{name}/fetchPlans/{plan}`: 'entity' / 'plan' when the entity or the plan
 * is not found (the two upstream 404s).
 */
export function describeNamedFetchPlan(
  model: Model,
  entityName: string,
  planName: string,
  viewer: MetadataViewer
): FetchPlanDescription | 'entity' | 'plan' {
  if (!entityVisible(model, entityName, viewer)) return 'entity'
  const plan = resolveFetchPlan(model, entityName, planName)
  return plan ? describeFetchPlan(visiblePlan(plan, viewer)) : 'plan'
}

/** `/metadata/entities/{name}/fetchPlans`: the defined plans (no built-ins, as upstream). */
export function describeFetchPlans(
  model: Model,
  entityName: string,
  viewer: MetadataViewer
): FetchPlanDescription[] | null {
  if (!entityVisible(model, entityName, viewer)) return null
  return fetchPlanNames(model, entityName).flatMap((name) => {
    const plan = resolveFetchPlan(model, entityName, name)
    return plan ? [describeFetchPlan(visiblePlan(plan, viewer))] : []
  })
}

/** `/metadata/enums/{fqn}`; null when unknown. */
export function describeEnum(
  model: Model,
  fqn: string,
  viewer: MetadataViewer
): EnumDescription | null {
  const definition = model.enums.get(fqn)
  if (!definition) return null
  return {
    name: definition.name,
    values: definition.values.map((v) => ({
      name: v.name,
      id: v.id,
      caption: viewer.caption(`${definition.name}.${v.name}`),
    })),
  }
}

/** `/metadata/enums`: every enum, in definition order. */
export function describeEnums(model: Model, viewer: MetadataViewer): EnumDescription[] {
  return [...model.enums.keys()].map((fqn) => describeEnum(model, fqn, viewer)!)
}

const INTEGER = { format: '0', decimalSeparator: '', groupingSeparator: '' }
const DATATYPE_PARAMETERS: Record<string, Record<string, string>> = {
  dateTime: { format: "yyyy-MM-dd'T'HH:mm:ss.SSS" },
  date: { format: 'yyyy-MM-dd' },
  time: { format: 'HH:mm:ss' },
  decimal: { format: '0.####', decimalSeparator: '.', groupingSeparator: '' },
  double: { format: '0.###', decimalSeparator: '.', groupingSeparator: '' },
  float: { format: '0.###', decimalSeparator: '.', groupingSeparator: '' },
  int: INTEGER,
  long: INTEGER,
  short: INTEGER,
  bigInteger: INTEGER,
}

/** The upstream core datatype ids (reference 8.1) plus our custom `json`. */
const DATATYPE_IDS = [
  'string',
  'uuid',
  'int',
  'long',
  'short',
  'bigInteger',
  'double',
  'float',
  'decimal',
  'boolean',
  'date',
  'time',
  'dateTime',
  'localDate',
  'localTime',
  'localDateTime',
  'offsetDateTime',
  'offsetTime',
  'byteArray',
  'char',
  'uri',
  'fileRef',
  'json',
]

/** `/metadata/datatypes` (reference 8.4): `name` repeats `id`; parameters are strings. */
export function describeDatatypes(): DatatypeDescription[] {
  return DATATYPE_IDS.map((id) => ({ id, name: id, ...DATATYPE_PARAMETERS[id] }))
}
