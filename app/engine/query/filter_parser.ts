/**
 * The filter language entry point: `parseFilter(model, entity, json)` runs
 * text -> shape (filter_shape.ts) -> resolution against the model (here) and returns the
 * `ParsedFilter` (filter_ast.ts) or the upstream error body. Pure: no database, no HTTP.
 */
import type { AttributeMeta, EntityMeta, Model } from '../metadata/model.js'
import type {
  FilterCondition,
  FilterGroup,
  FilterNode,
  ParsedFilter,
  PropertyPath,
  ValueType,
} from './filter_ast.js'
import { conditionsOf } from './filter_ast.js'
import type { FilterLimits } from './limits.js'
import { DEFAULT_FILTER_LIMITS, withDefaults } from './limits.js'
import type { RawCondition, RawGroup, RawNode } from './filter_shape.js'
import { readFilterJson, readFilterShape } from './filter_shape.js'
import { categoryOf, javaTypeOf } from './operators/registry.js'
import type { PathProblem } from './property_path.js'
import { isPathProblem, leaf, resolvePath } from './property_path.js'
import type { ValueTarget } from './values/registry.js'
import type { QueryResult } from './errors.js'
import { type QueryFailure, capture, echo, entityOrFail, filterFailure } from './errors.js'

export interface FilterOptions extends Partial<FilterLimits> {
  /**
   * Attribute permission of the caller (security layer). An attribute it refuses, anywhere on a
   * path, is reported exactly like an unknown one, so a filter is never an oracle for it.
   */
  readable?: (attribute: AttributeMeta) => boolean
}

/**
 * Parses a client filter for `entityName`: a JSON value, or JSON text (lenient). Never throws
 * for bad input: the error result carries the upstream `{error, details}` and a status.
 */
export function parseFilter(
  model: Model,
  entityName: string,
  json: unknown,
  options: FilterOptions = {}
): QueryResult<ParsedFilter> {
  const limits = withDefaults(DEFAULT_FILTER_LIMITS, options)
  return capture(() => {
    const entity = entityOrFail(model, entityName)
    const raw = readFilterShape(readFilterJson(json, limits), limits)
    const root = new Resolver(model, entity, limits, options.readable).group(raw)
    const conditionCount = [...conditionsOf(root)].length
    return { entity, root: { ...root, type: 'AND' as const }, conditionCount }
  })
}

class Resolver {
  constructor(
    private model: Model,
    private entity: EntityMeta,
    private limits: FilterLimits,
    private readable?: (attribute: AttributeMeta) => boolean
  ) {}

  group(raw: RawGroup): FilterGroup {
    return { kind: 'group', type: raw.type, conditions: raw.conditions.map((n) => this.node(n)) }
  }

  private node(raw: RawNode): FilterNode {
    return raw.kind === 'group' ? this.group(raw) : this.condition(raw)
  }

  private condition(raw: RawCondition): FilterCondition {
    const resolved = resolvePath(this.model, this.entity, raw.property, {
      maxSegments: this.limits.maxPathLength,
      allowToMany: true,
      readable: this.readable,
    })
    if (isPathProblem(resolved)) throw this.pathFailure(raw.property, resolved)
    const target = this.target(resolved)
    const operator = raw.operator
    if (!operator.categories.has(categoryOf(target.type)))
      throw filterFailure(
        `Operator ${operator.token} is not available for java type ${javaTypeOf(target.type)}`
      )
    const operands = operator.build({
      hasValue: raw.hasValue,
      raw: raw.value,
      target,
      maxInListSize: this.limits.maxInListSize,
    })
    return {
      kind: 'condition',
      path: resolved,
      operator: operator.token,
      valueType: target.type,
      ...operands,
    } as FilterCondition
  }

  private target(path: PropertyPath): ValueTarget {
    const a = leaf(path)
    const reference = a.kind === 'datatype' ? null : (this.model.entity(a.target!) ?? null)
    const enumName = a.kind === 'datatype' ? (a.definition?.enum ?? null) : null
    const type: ValueType = {
      datatype: a.datatype ?? 'string',
      enum: a.datatype === 'enum' ? enumName : null,
      reference: reference?.name ?? null,
    }
    const enumDef = type.enum ? (this.model.enums.get(type.enum) ?? null) : null
    return { type, reference, ctx: { maxValueLength: this.limits.maxValueLength, enumDef } }
  }

  private pathFailure(property: string, problem: PathProblem): QueryFailure {
    if (problem.reason === 'tooLong')
      return filterFailure(
        `Property path is longer than ${this.limits.maxPathLength} segments: ${echo(property)}`
      )
    if (problem.reason === 'transient')
      return filterFailure(`Property for ${this.entity.name} is not persistent: ${echo(property)}`)
    return filterFailure(`Property for ${this.entity.name} not found: ${echo(property)}`)
  }
}
