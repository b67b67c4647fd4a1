/**
 * Public surface of the model engine: code outside app/engine imports from here only.
 */
export { Engine } from './engine.js'
export type { EngineOptions } from './engine.js'
export { Model } from './metadata/model.js'
export type { EntityMeta, AttributeMeta } from './metadata/model.js'
export type * from './metadata/types.js'
export { applyModel } from './metadata/model_service.js'
export type { ApplyResult, ApplyOptions } from './metadata/model_service.js'
export { inspectSchema, inspectTable, listTables } from './schema/inspector.js'
export type { InspectedTable } from './schema/inspector.js'
export {
  describeDatatypes,
  describeEntities,
  describeEntity,
  describeEnum,
  describeEnums,
  describeFetchPlans,
  describeNamedFetchPlan,
  entityVisible,
  UPSTREAM_DATATYPE,
} from './metadata/describe.js'
export type {
  DatatypeDescription,
  EntityDescription,
  EnumDescription,
  MetadataViewer,
  PropertyDescription,
} from './metadata/describe.js'
export {
  describeFetchPlan,
  fetchPlanNames,
  filterFetchPlan,
  instanceNamePaths,
  isBuiltinPlan,
  resolveFetchPlan,
  resolveInlineFetchPlan,
} from './query/fetch_plans.js'
export type { FetchPlanDescription, PlanNode } from './query/fetch_plans.js'
