/**
 * Registry of filter operators (token -> definition) and of the type categories that decide
 * which operators a property accepts. A new operator: one definition in a family file (or a
 * new family file) and one spread below; a new datatype: one line in each table here.
 */
import type { Datatype } from '../../metadata/types.js'
import type { OperatorToken, ValueType } from '../filter_ast.js'
import { COMPARISON_OPERATORS } from './comparison.js'
import { LIKE_OPERATORS } from './like.js'
import { LIST_OPERATORS } from './list.js'
import { NULL_OPERATORS } from './null_check.js'
import type { OperatorDefinition, TypeCategory } from './types.js'

const DEFINITIONS: readonly OperatorDefinition[] = [
  ...COMPARISON_OPERATORS,
  ...LIST_OPERATORS,
  ...LIKE_OPERATORS,
  ...NULL_OPERATORS,
]

export const OPERATORS: ReadonlyMap<string, OperatorDefinition> = new Map(
  DEFINITIONS.map((d) => [d.token, d])
)

/** The definition of an operator token (exact, case-sensitive, as upstream). */
export function findOperator(token: string): OperatorDefinition | undefined {
  return OPERATORS.get(token)
}

const CATEGORIES: Readonly<Record<Datatype, TypeCategory>> = {
  string: 'string',
  text: 'string',
  int: 'number',
  long: 'number',
  double: 'number',
  decimal: 'number',
  date: 'date',
  dateTime: 'date',
  offsetDateTime: 'date',
  time: 'time',
  boolean: 'boolean',
  uuid: 'identity',
  enum: 'identity',
  file: 'identity',
  json: 'opaque',
}

/** Upstream names the Java type in `Operator X is not available for java type T`. */
const JAVA_TYPES: Readonly<Record<Datatype, string>> = {
  string: 'java.lang.String',
  text: 'java.lang.String',
  int: 'java.lang.Integer',
  long: 'java.lang.Long',
  double: 'java.lang.Double',
  decimal: 'java.math.BigDecimal',
  date: 'java.time.LocalDate',
  dateTime: 'java.time.LocalDateTime',
  offsetDateTime: 'java.time.OffsetDateTime',
  time: 'java.time.LocalTime',
  boolean: 'java.lang.Boolean',
  uuid: 'java.util.UUID',
  enum: 'java.lang.Enum',
  file: 'io.jmix.core.FileRef',
  json: 'json',
}

export function categoryOf(type: ValueType): TypeCategory {
  return type.reference ? 'identity' : CATEGORIES[type.datatype]
}

/** The "Java type" of a property: enums by their name, references by the entity name. */
export function javaTypeOf(type: ValueType): string {
  return type.reference ?? type.enum ?? JAVA_TYPES[type.datatype]
}

/** Operator tokens a property of this type accepts, in registry order. */
export function operatorsFor(type: ValueType): OperatorToken[] {
  const category = categoryOf(type)
  return DEFINITIONS.filter((d) => d.categories.has(category)).map((d) => d.token)
}
