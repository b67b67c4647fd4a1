/**
 * `enums`, `entities` and `fetchPlans`: the model, owned by app/engine. Merged into the stored
 * model (prune: unnamed elements are removed), validated with JSON paths, planned as DDL with its
 * data-loss risks and executed with the model rows, the model version and the schema changelog.
 */
import vine from '@vinejs/vine'
import { CARDINALITIES, ID_TYPES, ON_DELETE, TRAITS } from '#engine/metadata/types'
import { loadModelDefinition } from '#engine/metadata/store'
import { normalizeModel } from '#engine/metadata/normalize'
import { validateModel } from '#engine/metadata/validate'
import { mergeDocument } from '#engine/definition/merge'
import { renameConflicts } from '#engine/definition/rename_conflicts'
import { executeModelChange, isEmptyChange, planModelChange } from '#engine/metadata/model_service'
import type { DefinitionSection, Problem, ShapeCheck } from '../section.js'
import { arrayOf, isObject, keysOf, unknownKeys } from '../shape.js'

const caption = vine.record(vine.string())
const str = () => vine.string().trim().minLength(1)
const int = () => vine.number({ strict: true }).withoutDecimals()
const bool = () => vine.boolean({ strict: true })
// String first: the number branch claims numeric-looking strings ("0") and then rejects them
// for not being numbers, while "abc" was accepted as a string.
const numberOrString = () => vine.unionOfTypes([vine.string(), vine.number({ strict: true })])

const attribute = vine.object({
  name: str(),
  type: str(),
  length: int().optional(),
  precision: int().optional(),
  scale: int().optional(),
  mandatory: bool().optional(),
  unique: bool().optional(),
  min: numberOrString().optional(),
  max: numberOrString().optional(),
  pattern: vine.string().optional(),
  enum: str().optional(),
  target: str().optional(),
  cardinality: vine.enum(CARDINALITIES).optional(),
  mappedBy: str().optional(),
  linkTable: str().optional(),
  onDelete: vine.enum(ON_DELETE).optional(),
  transient: bool().optional(),
  readOnly: bool().optional(),
  caption: caption.optional(),
  description: vine.string().optional(),
  renamedFrom: str().optional(),
})

const index = vine.object({
  attributes: vine.array(str()),
  unique: bool().optional(),
  name: str().optional(),
})

const entity = vine.object({
  name: str(),
  table: str().optional(),
  caption: caption.optional(),
  description: vine.string().optional(),
  idType: vine.enum(ID_TYPES).optional(),
  traits: vine.array(vine.enum(TRAITS)).optional(),
  instanceName: str().optional(),
  attributes: vine.array(attribute),
  indexes: vine.array(index).optional(),
  renamedFrom: str().optional(),
})

const enumValue = vine.object({
  name: str(),
  id: vine.unionOfTypes([vine.string(), vine.number({ strict: true })]),
  caption: caption.optional(),
})

const enumeration = vine.object({
  name: str(),
  caption: caption.optional(),
  description: vine.string().optional(),
  values: vine.array(enumValue),
})

const fetchPlan = vine.object({
  entity: str(),
  name: str(),
  extends: str().optional(),
  properties: vine.array(vine.any()),
})

/** Fetch plan properties: names or `{name, fetchPlan}` with a plan name or an inline plan. */
const planProperties: ShapeCheck = (properties, path, out) => {
  if (!Array.isArray(properties)) return void out.push({ path, message: 'must be an array' })
  properties.forEach((p, i) => {
    const pp = `${path}[${i}]`
    if (typeof p === 'string') return
    if (!isObject(p) || typeof p.name !== 'string')
      return out.push({ path: pp, message: 'must be an attribute name or { "name", "fetchPlan" }' })
    unknownKeys(p, ['name', 'fetchPlan'], pp, out)
    if (p.fetchPlan === undefined || typeof p.fetchPlan === 'string') return
    if (!isObject(p.fetchPlan))
      return out.push({ path: `${pp}.fetchPlan`, message: 'must be a plan name or an inline plan' })
    unknownKeys(p.fetchPlan, ['extends', 'properties'], `${pp}.fetchPlan`, out)
    if (p.fetchPlan.extends !== undefined && typeof p.fetchPlan.extends !== 'string')
      out.push({ path: `${pp}.fetchPlan.extends`, message: 'must be a plan name' })
    planProperties(p.fetchPlan.properties, `${pp}.fetchPlan.properties`, out)
  })
}

export const modelSection: DefinitionSection = {
  name: 'model',
  keys: {
    enums: {
      schema: vine.array(enumeration),
      shape: arrayOf(keysOf(enumeration), { values: keysOf(enumValue) }),
      element: (e) => e.name,
    },
    entities: {
      schema: vine.array(entity),
      shape: arrayOf(keysOf(entity), { attributes: keysOf(attribute), indexes: keysOf(index) }),
      element: (e) => e.name,
    },
    fetchPlans: {
      schema: vine.array(fetchPlan),
      shape: (value, path, out) => {
        arrayOf(keysOf(fetchPlan))(value, path, out)
        if (Array.isArray(value))
          value.forEach((f, i) => {
            if (isObject(f)) planProperties(f.properties, `${path}[${i}].properties`, out)
          })
      },
      element: (p) => `${p.entity}/${p.name}`,
    },
  },

  async plan(ctx) {
    const { document, trx } = ctx
    const current = await loadModelDefinition(trx)
    const merged = mergeDocument(current, {
      enums: document.enums,
      entities: document.entities,
      fetchPlans: document.fetchPlans,
      prune: ctx.pruned('model'),
    })
    const definition = normalizeModel(merged.model)
    ctx.model = { definition, renames: merged.renames }
    const problems: Problem[] = [
      ...renameConflicts(current, document.entities),
      ...validateModel(definition, merged.paths),
    ]
    const none = { changes: [], apply: async () => ({ changed: false }) }
    if (problems.length) return { problems, ...none }
    const change = await planModelChange(trx, merged.model, {
      current,
      hints: merged.hints,
      renames: merged.renames,
      onProgress: ctx.onProgress,
    })
    if (change.conflicts.length)
      return { problems: change.conflicts.map((m) => ({ path: '$', message: m })), ...none }
    return {
      problems: [],
      changes: change.changes,
      steps: change.steps,
      refusals: change.refusals,
      async apply(transaction) {
        if (isEmptyChange(change)) return { changed: false }
        const modelVersion = await executeModelChange(transaction, change, {
          source: ctx.source,
          onProgress: ctx.onProgress,
        })
        return { changed: true, modelVersion }
      },
    }
  },

  async export(client) {
    const model = await loadModelDefinition(client)
    return { enums: model.enums, entities: model.entities, fetchPlans: model.fetchPlans }
  },
}
