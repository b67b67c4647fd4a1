/*
 * The search filter language of `/rest/entities/{e}/search` and of row-level role filters
 * (README "Entities API" -> Filters; the server's parser: app/engine/query/README.md), as types
 * and pure helpers. No React here: the builder (filter_builder.tsx) and anyone who needs to
 * inspect, clean or check a filter share these.
 *
 *   { conditions: [ {property, operator, value?} | {group: 'AND'|'OR', conditions: [...]} ] }
 *
 * Root conditions are ANDed. Property paths go through to-one and to-many relations
 * (`customer.name`, `lines.book.title`; a path through a to-many matches when ANY related row
 * matches). A path may end at a relation: values are ids of the target.
 */
import type { ModelAttribute, ModelEntity, ModelEnum } from '../../lib/model'

export type FilterOperator =
  | '='
  | '<>'
  | '>'
  | '>='
  | '<'
  | '<='
  | 'in'
  | 'notIn'
  | 'contains'
  | 'doesNotContain'
  | 'startsWith'
  | 'endsWith'
  | 'isNull'
  | 'notEmpty'

export interface FilterCondition {
  property: string
  operator: FilterOperator
  /** Absent for isNull/notEmpty; an array for in/notIn; enum values by NAME; references by id. */
  value?: unknown
}

export interface FilterGroup {
  group: 'AND' | 'OR'
  conditions: FilterNode[]
}

export type FilterNode = FilterCondition | FilterGroup

export interface Filter {
  conditions: FilterNode[]
}

export const emptyFilter = (): Filter => ({ conditions: [] })

export const isGroup = (node: FilterNode): node is FilterGroup =>
  typeof (node as FilterGroup).group === 'string'

/** Operator families and their labels, in the order the builder offers them. */
export const OPERATOR_LABELS: Record<FilterOperator, string> = {
  '=': 'equals',
  '<>': 'does not equal',
  '>': 'greater than',
  '>=': 'greater than or equal',
  '<': 'less than',
  '<=': 'less than or equal',
  'in': 'is one of',
  'notIn': 'is none of',
  'contains': 'contains',
  'doesNotContain': 'does not contain',
  'startsWith': 'starts with',
  'endsWith': 'ends with',
  'isNull': 'is empty',
  'notEmpty': 'is not empty',
}

/** What kind of value an attribute holds, as the filter language groups them. */
export type ValueKind =
  | 'string'
  | 'number'
  | 'decimal'
  | 'date'
  | 'time'
  | 'dateTime'
  | 'offsetDateTime'
  | 'boolean'
  | 'uuid'
  | 'enum'
  | 'file'
  | 'reference'
  | 'json'

const STRING_OPS: FilterOperator[] = [
  '=',
  '<>',
  'contains',
  'doesNotContain',
  'startsWith',
  'endsWith',
  'in',
  'notIn',
  'isNull',
  'notEmpty',
]
const ORDERED_OPS: FilterOperator[] = [
  '=',
  '<>',
  '>',
  '>=',
  '<',
  '<=',
  'in',
  'notIn',
  'isNull',
  'notEmpty',
]
const TIME_OPS: FilterOperator[] = ['=', '<>', '>', '>=', '<', '<=', 'isNull', 'notEmpty']
const IDENTITY_OPS: FilterOperator[] = ['=', '<>', 'in', 'notIn', 'isNull', 'notEmpty']

/** The operators the server accepts for a value kind (upstream RestFilterOpManagerImpl). */
export function operatorsFor(kind: ValueKind): FilterOperator[] {
  switch (kind) {
    case 'string':
      return STRING_OPS
    case 'number':
    case 'decimal':
    case 'date':
    case 'dateTime':
    case 'offsetDateTime':
      return ORDERED_OPS
    case 'time':
      return TIME_OPS
    case 'boolean':
      return ['=', '<>', 'isNull', 'notEmpty']
    case 'json':
      return ['isNull', 'notEmpty']
    default:
      return IDENTITY_OPS
  }
}

export const needsValue = (op: FilterOperator) => op !== 'isNull' && op !== 'notEmpty'
export const isListOperator = (op: FilterOperator) => op === 'in' || op === 'notIn'

const RELATION_TYPES = new Set(['association', 'composition'])

/** The id datatype of an entity as a value kind (uuid ids are `uuid`, long ids numbers). */
const idKind = (entity: ModelEntity | undefined): ValueKind =>
  entity?.idType === 'long' ? 'number' : entity?.idType === 'string' ? 'string' : 'uuid'

export function kindOfAttribute(attribute: ModelAttribute): ValueKind {
  if (RELATION_TYPES.has(attribute.type)) return 'reference'
  switch (attribute.type) {
    case 'string':
    case 'text':
      return 'string'
    case 'int':
    case 'long':
    case 'double':
      return 'number'
    case 'decimal':
      return 'decimal'
    case 'date':
    case 'time':
    case 'dateTime':
    case 'offsetDateTime':
    case 'boolean':
    case 'uuid':
    case 'file':
    case 'json':
      return attribute.type
    default:
      return 'enum'
  }
}

/**
 * Every attribute of an entity a filter may name: the system attributes its traits add
 * (`id`, `version`, `createdBy`, …) and its own persistent attributes (transient ones are
 * refused by the server). The admin API lists only the declared ones.
 */
export function filterableAttributes(entity: ModelEntity): ModelAttribute[] {
  const traits = new Set(entity.traits ?? [])
  const id: ModelAttribute = {
    name: 'id',
    type: entity.idType === 'long' ? 'long' : entity.idType === 'string' ? 'string' : 'uuid',
    system: true,
  }
  const system: ModelAttribute[] = []
  if (traits.has('versioned')) system.push({ name: 'version', type: 'int', system: true })
  if (traits.has('audited'))
    system.push(
      { name: 'createdBy', type: 'string', system: true },
      { name: 'createdDate', type: 'offsetDateTime', system: true },
      { name: 'lastModifiedBy', type: 'string', system: true },
      { name: 'lastModifiedDate', type: 'offsetDateTime', system: true }
    )
  if (traits.has('softDelete'))
    system.push(
      { name: 'deletedBy', type: 'string', system: true },
      { name: 'deletedDate', type: 'offsetDateTime', system: true }
    )
  return [id, ...entity.attributes.filter((a) => !a.transient), ...system]
}

export interface ResolvedPath {
  /** The attribute at the end of the path. */
  attribute: ModelAttribute
  /** The entity that declares it. */
  owner: ModelEntity
  kind: ValueKind
  /** For a path ending at a relation: the target entity. */
  target?: ModelEntity
  /** The enum, when the attribute is one (and `enums` were given). */
  enumDef?: ModelEnum
  /** True when the path goes through (or ends at) a to-many relation: "any related row". */
  toMany: boolean
}

const toManyOf = (a: ModelAttribute) =>
  a.cardinality === 'ONE_TO_MANY' || a.cardinality === 'MANY_TO_MANY'

/** Resolves a dotted path against the model, or null when a segment is unknown. */
export function resolvePath(
  entities: ModelEntity[],
  entityName: string,
  path: string,
  enums: ModelEnum[] = []
): ResolvedPath | null {
  const byName = new Map(entities.map((e) => [e.name, e]))
  let owner = byName.get(entityName)
  let toMany = false
  const segments = path.split('.')
  for (let i = 0; i < segments.length; i++) {
    if (!owner) return null
    const attribute = filterableAttributes(owner).find((a) => a.name === segments[i])
    if (!attribute) return null
    const kind = kindOfAttribute(attribute)
    if (kind === 'reference') toMany ||= toManyOf(attribute)
    if (i === segments.length - 1) {
      const target = kind === 'reference' ? byName.get(attribute.target ?? '') : undefined
      const enumName = typeof attribute.enum === 'string' ? attribute.enum : attribute.type
      const enumDef = kind === 'enum' ? enums.find((e) => e.name === enumName) : undefined
      return { attribute, owner, kind, target, enumDef, toMany }
    }
    if (kind !== 'reference') return null
    owner = byName.get(attribute.target ?? '')
  }
  return null
}

/** The kind of a reference's id values (for the value input of a path that ends at a relation). */
export const referenceIdKind = (resolved: ResolvedPath): ValueKind => idKind(resolved.target)

/**
 * Local problems of a filter, keyed like the server's problem paths below the filter
 * (`conditions[0].property`, `conditions[1].conditions[0].value`): a condition without a
 * property or without its value, an operator the property's type does not allow.
 */
export function filterProblems(
  filter: Filter,
  entities: ModelEntity[],
  entityName: string,
  placeholders: string[] = []
): Record<string, string> {
  const out: Record<string, string> = {}
  const walk = (nodes: FilterNode[], prefix: string) => {
    nodes.forEach((node, i) => {
      const at = `${prefix}conditions[${i}]`
      if (isGroup(node)) return walk(node.conditions, `${at}.`)
      if (!node.property) return void (out[`${at}.property`] = 'Choose a property')
      const resolved = resolvePath(entities, entityName, node.property)
      if (!resolved) return void (out[`${at}.property`] = `Unknown property ${node.property}`)
      if (!operatorsFor(resolved.kind).includes(node.operator))
        return void (out[`${at}.operator`] = `Not allowed for this property`)
      if (!needsValue(node.operator)) return
      const v = node.value
      if (typeof v === 'string' && placeholders.includes(v)) return
      const blank = (x: unknown) => x === undefined || x === null || x === ''
      if (isListOperator(node.operator)) {
        if (!Array.isArray(v) || v.length === 0) out[`${at}.value`] = 'Add at least one value'
        else if (v.some(blank)) out[`${at}.value`] = 'Fill in or remove the empty values'
      } else if (blank(v)) out[`${at}.value`] = 'Enter a value'
    })
  }
  walk(filter.conditions, '')
  return out
}

/** Counts the conditions (not groups) of a filter. */
export function countConditions(nodes: FilterNode[]): number {
  return nodes.reduce((n, node) => n + (isGroup(node) ? countConditions(node.conditions) : 1), 0)
}

/** A filter without empty groups (what is worth sending; the server drops them anyway). */
export function pruneFilter(filter: Filter): Filter {
  const prune = (nodes: FilterNode[]): FilterNode[] =>
    nodes.flatMap((n): FilterNode[] => {
      if (!isGroup(n)) return [n]
      const conditions = prune(n.conditions)
      return conditions.length ? [{ group: n.group, conditions }] : []
    })
  return { conditions: prune(filter.conditions) }
}

/** The default operator and value when a condition's property changes to this kind. */
export function defaultOperator(kind: ValueKind): FilterOperator {
  if (kind === 'string') return 'contains'
  if (kind === 'json') return 'notEmpty'
  return '='
}

/** Keeps the operator when the new kind allows it; drops a value that no longer fits. */
export function retarget(
  condition: FilterCondition,
  property: string,
  kind: ValueKind
): FilterCondition {
  const operator = operatorsFor(kind).includes(condition.operator)
    ? condition.operator
    : defaultOperator(kind)
  const next: FilterCondition = { property, operator }
  if (needsValue(operator)) next.value = isListOperator(operator) ? [] : ''
  return next
}
