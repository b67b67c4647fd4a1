/*
 * The application model as the admin API gives it (GET /admin/api/entities, /enums, /fetch-plans:
 * the definition's own shapes, ../README "Definition format"). Shared by every page that needs
 * the model (designer, ER diagram, data browser, filter builders, role matrices).
 */
import { useQuery } from '@tanstack/react-query'
import { adminGet } from './admin'

export type Captions = Record<string, string>

export interface ModelAttribute {
  name: string
  /** A datatype (string, int, decimal, date, …), an enum name, or association / composition. */
  type: string
  cardinality?: 'MANY_TO_ONE' | 'ONE_TO_ONE' | 'ONE_TO_MANY' | 'MANY_TO_MANY'
  target?: string
  mappedBy?: string
  onDelete?: string
  mandatory?: boolean
  unique?: boolean
  caption?: Captions
  description?: string
  [key: string]: unknown
}

export interface ModelEntity {
  name: string
  table?: string
  caption?: Captions
  description?: string
  idType?: string
  instanceName?: string
  traits?: string[]
  attributes: ModelAttribute[]
  indexes?: { attributes: string[]; unique?: boolean; name?: string }[]
  [key: string]: unknown
}

export interface ModelEnum {
  name: string
  values: { name: string; id: string | number; caption?: Captions }[]
  [key: string]: unknown
}

/**
 * A fetch-plan property as the definition writes it: an attribute name, or `{name, fetchPlan}`
 * where the nested plan is a plan name of the target or an inline plan, to any depth.
 */
export type FetchPlanProperty = string | { name: string; fetchPlan?: string | InlineFetchPlan }

export interface InlineFetchPlan {
  extends?: string
  properties: FetchPlanProperty[]
}

export interface ModelFetchPlan {
  entity: string
  name: string
  extends?: string
  properties: FetchPlanProperty[]
  [key: string]: unknown
}

/** Query keys of the model (all under 'admin': every admin change invalidates them). */
export const modelKeys = {
  all: ['admin', 'model'] as const,
  entities: () => [...modelKeys.all, 'entities'] as const,
  entity: (name: string) => [...modelKeys.all, 'entities', name] as const,
  enums: () => [...modelKeys.all, 'enums'] as const,
  fetchPlans: () => [...modelKeys.all, 'fetch-plans'] as const,
}

export function useModelEntities() {
  return useQuery({
    queryKey: modelKeys.entities(),
    queryFn: ({ signal }) => adminGet<ModelEntity[]>('entities', signal),
  })
}

export function useModelEnums() {
  return useQuery({
    queryKey: modelKeys.enums(),
    queryFn: ({ signal }) => adminGet<ModelEnum[]>('enums', signal),
  })
}

export const isRelation = (a: ModelAttribute) => a.type === 'association' || a.type === 'composition'
export const isToMany = (a: ModelAttribute) =>
  a.cardinality === 'ONE_TO_MANY' || a.cardinality === 'MANY_TO_MANY'

/** The caption in `locale` (then English, then the name). */
export const captionOf = (item: { name: string; caption?: Captions }, locale = 'en') =>
  item.caption?.[locale] ?? item.caption?.en ?? item.name
