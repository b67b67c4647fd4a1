/**
 * What the loader (loader.ts) works out once per plan node instead of once per request: the
 * relations a plan level batches, whether a level has any left once its to-one references are
 * folded, and its column list with the folds' shape key.
 */
import type { AttributeMeta, EntityMeta } from '../../metadata/model.js'
import type { PlanNode } from '../../query/fetch_plans.js'
import type { Fold } from './folds.js'
import type { LoadedRow } from './loader.js'

export interface PlannedRelation {
  name: string
  sub: PlanNode
  a: AttributeMeta
}

/** Per plan node (cached per model): the relations it loads, in plan order. */
const relationsCache = new WeakMap<PlanNode, { entity: EntityMeta; list: PlannedRelation[] }>()

export function relationsOf(entity: EntityMeta, plan: PlanNode): PlannedRelation[] {
  const cached = relationsCache.get(plan)
  if (cached?.entity === entity) return cached.list
  const list: PlannedRelation[] = []
  for (const [name, sub] of plan.properties) {
    const a = entity.attributes.get(name)
    if (sub && a && a.kind !== 'datatype' && !a.transient) list.push({ name, sub, a })
  }
  relationsCache.set(plan, { entity, list })
  return list
}

/** Whether relation `a` is folded into its level's statement (folds.ts). */
export const isFolded = (folded: Fold[], a: AttributeMeta) =>
  folded.length > 0 && folded.some((f) => f.attribute === a)

/** Whether `loadRelations` has a statement to run for this level. */
export function batches(entity: EntityMeta, plan: PlanNode, folded: Fold[], parents: LoadedRow[]) {
  if (parents.length === 0) return false
  for (const { a } of relationsOf(entity, plan)) {
    if (!isFolded(folded, a)) return true
  }
  return false
}

/** Per column list (cached per plan node): the list with each fold key after it. */
const foldKeyed = new WeakMap<string[], Map<string, string[]>>()

/** `cols` and the folds' shape key, the same array for the same two (shape keys are cached). */
export function withFoldKey(cols: string[], key: string): string[] {
  if (!key) return cols
  let byKey = foldKeyed.get(cols)
  if (!byKey) foldKeyed.set(cols, (byKey = new Map()))
  let selected = byKey.get(key)
  if (!selected) byKey.set(key, (selected = [...cols, key]))
  return selected
}
