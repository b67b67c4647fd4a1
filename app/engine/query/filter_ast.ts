/**
 * The parsed filter: what `parseFilter` produces and the SQL builder, the row-level compiler and
 * the in-memory predicate consume. Every name in it is resolved model metadata and every value
 * is already converted to the attribute's datatype, so later stages never look at client text
 * again: identifiers come from `AttributeMeta`, values only ever become bindings.
 */
import type { EntityMeta } from '../metadata/model.js'
import type { Datatype } from '../metadata/types.js'
import type { PropertyPath } from './property_path.js'

export type { PropertyPath } from './property_path.js'

/** Operator tokens of the upstream filter JSON. */
export type OperatorToken =
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

export type GroupType = 'AND' | 'OR'

export type Comparator = '=' | '<>' | '>' | '>=' | '<' | '<='

/**
 * One converted value. Per datatype: string, text, file, enum (the stored id), date
 * (`yyyy-MM-dd`), time (`HH:mm:ss[.f]`), dateTime (`yyyy-MM-ddTHH:mm:ss[.f]`, local),
 * offsetDateTime (UTC, `yyyy-MM-ddTHH:mm:ss.sssZ`), uuid (lower case) and decimal (plain decimal
 * text, exact) are strings; int and double are numbers; long is a number, or its decimal text
 * beyond 2^53; boolean is a boolean.
 */
export type FilterScalar = string | number | boolean

/** What the values of a condition are, for binding and formatting. */
export interface ValueType {
  /** The attribute's datatype; for a relation, the id datatype of the target entity. */
  datatype: Datatype
  /** Enum name when the attribute is an enum (values are stored ids). */
  enum: string | null
  /** Target entity when the path ends at a relation (values are its ids). */
  reference: string | null
}

interface ConditionBase {
  kind: 'condition'
  path: PropertyPath
  operator: OperatorToken
  valueType: ValueType
}

/** `=`, `<>`, `>`, `>=`, `<`, `<=`. */
export interface ComparisonCondition extends ConditionBase {
  family: 'comparison'
  comparator: Comparator
  value: FilterScalar
}

/**
 * `in` / `notIn`. Values are distinct. An empty `in` matches nothing and an empty `notIn`
 * matches everything (the SQL builder must not emit `IN ()`).
 */
export interface ListCondition extends ConditionBase {
  family: 'list'
  negated: boolean
  values: FilterScalar[]
}

/**
 * `contains`, `doesNotContain`, `startsWith`, `endsWith`: case-insensitive LIKE. `value` is the
 * raw text; `escape: true` says the SQL builder must build the pattern with `likePattern`
 * (operators/like.ts), which escapes `%`, `_` and the escape character, and emit
 * `ESCAPE '\'` (SQLite has no default escape character).
 */
export interface LikeCondition extends ConditionBase {
  family: 'like'
  match: 'contains' | 'startsWith' | 'endsWith'
  negated: boolean
  value: string
  caseInsensitive: true
  escape: true
}

/**
 * `isNull` / `notEmpty` after the optional boolean `value` is applied: `isSet` true means
 * "is not null" (for a to-many path end: "has at least one related row").
 */
export interface NullCondition extends ConditionBase {
  family: 'null'
  isSet: boolean
}

export type FilterCondition = ComparisonCondition | ListCondition | LikeCondition | NullCondition

/** The operator-specific part of a condition, as an operator builds it. */
export type ConditionOperands =
  | Pick<ComparisonCondition, 'family' | 'comparator' | 'value'>
  | Pick<ListCondition, 'family' | 'negated' | 'values'>
  | Pick<LikeCondition, 'family' | 'match' | 'negated' | 'value' | 'caseInsensitive' | 'escape'>
  | Pick<NullCondition, 'family' | 'isSet'>

/** A group never is empty: empty groups impose no restriction upstream and are dropped. */
export interface FilterGroup {
  kind: 'group'
  type: GroupType
  conditions: FilterNode[]
}

export type FilterNode = FilterGroup | FilterCondition

export interface ParsedFilter {
  entity: EntityMeta
  /** Root conditions are ANDed; an empty root means "no restriction". */
  root: FilterGroup & { type: 'AND' }
  /** Property conditions in the tree. */
  conditionCount: number
}

/** Every property condition of a tree, depth first (for permission checks and planning). */
export function* conditionsOf(node: FilterNode): Generator<FilterCondition> {
  if (node.kind === 'condition') {
    yield node
    return
  }
  for (const child of node.conditions) yield* conditionsOf(child)
}
