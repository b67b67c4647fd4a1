/**
 * Definition types: the model as the application definition document describes it
 * (spec/app-definition.md). `ModelDefinition` is the normalized, stored form; the
 * immutable snapshot built from it lives in model.ts.
 */

export const DATATYPES = [
  'string',
  'text',
  'uuid',
  'int',
  'long',
  'double',
  'decimal',
  'boolean',
  'date',
  'time',
  'dateTime',
  'offsetDateTime',
  'enum',
  'file',
  'json',
] as const
export type Datatype = (typeof DATATYPES)[number]

export const RELATION_TYPES = ['association', 'composition'] as const
export type RelationType = (typeof RELATION_TYPES)[number]

export const ID_TYPES = ['uuid', 'long', 'string'] as const
export type IdType = (typeof ID_TYPES)[number]

export const TRAITS = ['versioned', 'audited', 'softDelete'] as const
export type Trait = (typeof TRAITS)[number]

export const CARDINALITIES = ['MANY_TO_ONE', 'ONE_TO_ONE', 'ONE_TO_MANY', 'MANY_TO_MANY'] as const
export type Cardinality = (typeof CARDINALITIES)[number]

export const ON_DELETE = ['unlink', 'cascade', 'deny'] as const
export type OnDelete = (typeof ON_DELETE)[number]

/** Translations keyed by locale ({ en: 'Order' }) or one plain string. */
export type Caption = Record<string, string>

export interface AttributeDefinition {
  name: string
  type: Datatype | RelationType
  length?: number
  precision?: number
  scale?: number
  mandatory?: boolean
  unique?: boolean
  min?: number | string
  max?: number | string
  pattern?: string
  enum?: string
  target?: string
  cardinality?: Cardinality
  mappedBy?: string
  linkTable?: string
  onDelete?: OnDelete
  transient?: boolean
  readOnly?: boolean
  caption?: Caption
  description?: string
  /** Import instruction only (never stored): the attribute's previous name; its data is kept. */
  renamedFrom?: string
}

export interface IndexDefinition {
  attributes: string[]
  unique?: boolean
  name?: string
}

export interface EntityDefinition {
  name: string
  table?: string
  caption?: Caption
  description?: string
  idType?: IdType
  traits?: Trait[]
  instanceName?: string
  attributes: AttributeDefinition[]
  indexes?: IndexDefinition[]
  /** Import instruction only (never stored): the entity's previous name; its table is kept. */
  renamedFrom?: string
}

export interface EnumValueDefinition {
  name: string
  id: string
  caption?: Caption
}

export interface EnumDefinition {
  name: string
  caption?: Caption
  description?: string
  values: EnumValueDefinition[]
}

export interface InlineFetchPlan {
  extends?: string
  properties: FetchPlanProperty[]
}

export type FetchPlanProperty = string | { name: string; fetchPlan?: string | InlineFetchPlan }

export interface FetchPlanDefinition {
  entity: string
  name: string
  extends?: string
  properties: FetchPlanProperty[]
}

export interface ModelDefinition {
  enums: EnumDefinition[]
  entities: EntityDefinition[]
  fetchPlans: FetchPlanDefinition[]
}

export const BUILTIN_FETCH_PLANS = ['_local', '_base', '_instance_name'] as const

/** Attribute names the server manages itself (id type and traits). */
export const SYSTEM_ATTRIBUTES = {
  id: 'id',
  version: 'version',
  createdBy: 'created_by',
  createdDate: 'created_date',
  lastModifiedBy: 'last_modified_by',
  lastModifiedDate: 'last_modified_date',
  deletedBy: 'deleted_by',
  deletedDate: 'deleted_date',
} as const

export const RESERVED_ATTRIBUTE_NAMES = new Set<string>([
  ...Object.keys(SYSTEM_ATTRIBUTES),
  '__securityToken',
])

export function isRelationType(type: string): type is RelationType {
  return type === 'association' || type === 'composition'
}
