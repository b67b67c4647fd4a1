/*
 * The permission matrix of a resource role as plain data, and its translation to and from the
 * role's policy lists (README "Security: roles and permissions"): entity policies per entity or
 * `*` with create/read/update/delete; attribute policies VIEW or MODIFY per `<entity>.<attr>`,
 * `<entity>.*`, `*.<attr>`, `*.*` (the highest level wins, MODIFY implies VIEW).
 * Pure functions: the component tests exercise them through the matrix.
 */
import type { AttributePolicy, EntityPolicy, Level, Operation } from '../api/roles'
import { OPERATIONS } from '../api/roles'
import type { Problem } from '../../../lib/admin'

export interface MatrixState {
  /** Operations per entity name or `*`. */
  entities: Record<string, Operation[]>
  /** Attribute levels per entity (or `*`), per attribute name (or `*`). */
  attributes: Record<string, Record<string, Level>>
}

export const emptyMatrix = (): MatrixState => ({ entities: {}, attributes: {} })

const rank = (level: Level | null | undefined) => (level === 'MODIFY' ? 2 : level === 'VIEW' ? 1 : 0)
const higher = (a: Level | null | undefined, b: Level | null | undefined): Level | null =>
  rank(a) >= rank(b) ? (a ?? null) : (b ?? null)

/** The matrix of a role's policies (`all`/`*` actions are the four operations). */
export function fromPolicies(entityPolicies: EntityPolicy[], attributePolicies: AttributePolicy[]): MatrixState {
  const state = emptyMatrix()
  for (const p of entityPolicies) {
    const ops = new Set(state.entities[p.entity] ?? [])
    for (const action of p.actions) {
      const a = action.toLowerCase()
      if (a === 'all' || a === '*') OPERATIONS.forEach((op) => ops.add(op))
      else if ((OPERATIONS as string[]).includes(a)) ops.add(a as Operation)
    }
    state.entities[p.entity] = OPERATIONS.filter((op) => ops.has(op))
  }
  for (const p of attributePolicies) {
    const level: Level = p.action.toUpperCase() === 'MODIFY' ? 'MODIFY' : 'VIEW'
    const map = (state.attributes[p.entity] ??= {})
    for (const name of p.attributes) map[name] = higher(map[name], level)!
  }
  return state
}

/** A canonical text of the matrix: equal texts grant the same. */
function canonical(state: MatrixState): string {
  const entities = Object.entries(state.entities)
    .filter(([, ops]) => ops.length)
    .map(([e, ops]) => `${e}:${[...ops].sort().join(',')}`)
    .sort()
  const attributes = Object.entries(state.attributes)
    .flatMap(([e, map]) => Object.entries(map).map(([a, l]) => `${e}.${a}:${l}`))
    .sort()
  return JSON.stringify([entities, attributes])
}

export const sameMatrix = (a: MatrixState, b: MatrixState) => canonical(a) === canonical(b)

/** Entity order of the policy lists: as the role had them, then `*`, then by name. */
function order(names: string[], before: string[]): string[] {
  const position = new Map<string, number>()
  before.forEach((name, i) => position.has(name) || position.set(name, i))
  const key = (name: string) => position.get(name) ?? Number.MAX_SAFE_INTEGER
  return [...new Set(names)].sort((a, b) => {
    const diff = key(a) - key(b)
    if (diff) return diff
    if (a === '*' || b === '*') return a === '*' ? -1 : 1
    return a.localeCompare(b)
  })
}

/**
 * The policy lists of a matrix. When it grants what `original` grants, `original` is returned
 * as it is (saving an unchanged role changes nothing); otherwise one entity policy per entity
 * (operations in create/read/update/delete order) and one attribute policy per entity and level.
 */
export function toPolicies(
  state: MatrixState,
  original: { entityPolicies: EntityPolicy[]; attributePolicies: AttributePolicy[] } = {
    entityPolicies: [],
    attributePolicies: [],
  }
): { entityPolicies: EntityPolicy[]; attributePolicies: AttributePolicy[] } {
  if (sameMatrix(state, fromPolicies(original.entityPolicies, original.attributePolicies))) return original
  const entityPolicies = order(
    Object.keys(state.entities),
    original.entityPolicies.map((p) => p.entity)
  )
    .filter((entity) => state.entities[entity]?.length)
    .map((entity) => ({ entity, actions: OPERATIONS.filter((op) => state.entities[entity]!.includes(op)) }))
  const attributePolicies: AttributePolicy[] = []
  for (const entity of order(Object.keys(state.attributes), original.attributePolicies.map((p) => p.entity))) {
    const map = state.attributes[entity] ?? {}
    for (const level of ['VIEW', 'MODIFY'] as const) {
      const attributes = Object.keys(map).filter((a) => map[a] === level)
      if (attributes.length) attributePolicies.push({ entity, attributes, action: level })
    }
  }
  return { entityPolicies, attributePolicies }
}

export function setOperation(state: MatrixState, entity: string, op: Operation, on: boolean): MatrixState {
  const ops = new Set(state.entities[entity] ?? [])
  if (on) ops.add(op)
  else ops.delete(op)
  const entities = { ...state.entities, [entity]: OPERATIONS.filter((o) => ops.has(o)) }
  if (!entities[entity]!.length) delete entities[entity]
  return { ...state, entities }
}

/** Sets (or with null removes) the level of `<entity>.<attribute>` (`*` allowed for both). */
export function setLevel(state: MatrixState, entity: string, attribute: string, level: Level | null): MatrixState {
  const map = { ...(state.attributes[entity] ?? {}) }
  if (level) map[attribute] = level
  else delete map[attribute]
  const attributes = { ...state.attributes, [entity]: map }
  if (!Object.keys(map).length) delete attributes[entity]
  return { ...state, attributes }
}

/** Read on each of `entities` (explicitly, whatever `*` grants). */
export function grantRead(state: MatrixState, entities: string[]): MatrixState {
  const next = { ...state.entities }
  for (const entity of entities) {
    const ops = new Set(next[entity] ?? [])
    ops.add('read')
    next[entity] = OPERATIONS.filter((o) => ops.has(o))
  }
  return { ...state, entities: next }
}

/** The level an attribute gets from all four lookups (`e.a`, `e.*`, `*.a`, `*.*`). */
export function effectiveLevel(state: MatrixState, entity: string, attribute: string): Level | null {
  const own = state.attributes[entity]
  const star = state.attributes['*']
  return [own?.[attribute], own?.['*'], star?.[attribute], star?.['*']].reduce<Level | null>(
    (best, level) => higher(best, level),
    null
  )
}

export const grantsOperation = (state: MatrixState, entity: string, op: Operation) =>
  Boolean(state.entities[entity]?.includes(op) || state.entities['*']?.includes(op))

/** Whether the matrix grants anything on `entity` itself (not through `*`). */
export const hasOwnGrant = (state: MatrixState, entity: string) =>
  Boolean(state.entities[entity]?.length || Object.keys(state.attributes[entity] ?? {}).length)

/**
 * Problems of a 422 that point into the policy lists, keyed by matrix cell: `entity:<name>`
 * (the entity's row) or `attr:<entity>.<attribute>`, found through the body that was sent;
 * `rest`: the problems that are not about a cell.
 */
export function matrixProblems(
  problems: Problem[],
  sent: { entityPolicies?: EntityPolicy[]; attributePolicies?: AttributePolicy[] } | null
): { cells: Record<string, string>; rest: Problem[] } {
  const cells: Record<string, string> = {}
  const rest: Problem[] = []
  const add = (key: string, message: string) => (cells[key] = cells[key] ? `${cells[key]}; ${message}` : message)
  for (const problem of problems) {
    const e = /^\$\.entityPolicies\[(\d+)\]/.exec(problem.path)
    const entityPolicy = e ? sent?.entityPolicies?.[Number(e[1])] : undefined
    if (entityPolicy) {
      add(`entity:${entityPolicy.entity}`, problem.message)
      continue
    }
    const a = /^\$\.attributePolicies\[(\d+)\](?:\.attributes\[(\d+)\])?/.exec(problem.path)
    const policy = a ? sent?.attributePolicies?.[Number(a[1])] : undefined
    if (!a || !policy) {
      rest.push(problem)
      continue
    }
    const attribute = a[2] !== undefined ? policy.attributes[Number(a[2])] : undefined
    add(attribute !== undefined ? `attr:${policy.entity}.${attribute}` : `entity:${policy.entity}`, problem.message)
  }
  return { cells, rest }
}
