/**
 * What the model controllers (entities, enums, fetch plans) share: the current model as the
 * export gives it, applying an edited copy of the whole model with `pruneSections: ['model']`
 * (so that what the edit removed is removed), and the bookkeeping around it: renames that other
 * elements follow, and problem paths that name the element they are about when they do not lie
 * in the request body.
 */
import type { HttpContext } from '@adonisjs/core/http'
import engine from '#engine/services/engine'
import { definitions, type DefinitionResult } from '#definition/main'
import type {
  EntityDefinition,
  EnumDefinition,
  FetchPlanDefinition,
  ModelDefinition,
} from '#engine/main'
import { followAttribute, followStored, type Renames } from '#engine/definition/renames'
import { routeParam } from '#controllers/rest/route_params'
import {
  adminError,
  changeOptions,
  invalidPayload,
  sendResult,
  type Problem,
} from './admin_http.js'

export type Model = ModelDefinition
type Body = Record<string, any>

/** The definition version each loaded model was read at (its edit is pinned to it). */
const readAt = new WeakMap<Model, number>()

/** The model as `GET /admin/api/definition` exports it (a private copy to edit). */
export async function loadModel(): Promise<Model> {
  const version = await definitions(engine).version()
  const document = (await definitions(engine).exportDocument()) as Record<string, any>
  const model = structuredClone({
    enums: document.enums ?? [],
    entities: document.entities ?? [],
    fetchPlans: document.fetchPlans ?? [],
  })
  readAt.set(model, version)
  return model
}

export const param = routeParam

/** The request body when it is a JSON object; otherwise answers 422 at `$` and returns null. */
export function objectBody(ctx: HttpContext): Body | null {
  const body = ctx.request.body()
  if (body && typeof body === 'object' && !Array.isArray(body)) return { ...body }
  invalidPayload(ctx, [{ path: '$', message: 'must be a JSON object' }])
  return null
}

export const conflict = (ctx: HttpContext, what: string) =>
  adminError(ctx, 409, 'Conflict', `${what} already exists`)

export const planKey = (p: { entity: string; name: string }) => `${p.entity}/${p.name}`

const quoted = (value: string) => `'${value.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`
const byName = (name: string) => `[?(@.name==${quoted(name)})]`

/**
 * A path of the document we sent, outside the request body, in a form that names the element
 * (a JSONPath filter valid against the exported definition): index positions of the internal
 * document mean nothing to the caller.
 */
export function namedPath(path: string, model: Model): string {
  return path.replace(
    /^\$\.(entities|enums|fetchPlans)\[(\d+)\](?:\.attributes\[(\d+)\])?/,
    (whole, key: string, i: string, j: string | undefined) => {
      if (key === 'fetchPlans') {
        const plan = model.fetchPlans[Number(i)]
        if (!plan) return whole
        return `$.fetchPlans[?(@.entity==${quoted(plan.entity)} && @.name==${quoted(plan.name)})]`
      }
      const element = (key === 'enums' ? model.enums : model.entities)[Number(i)]
      if (!element) return whole
      const attribute =
        j === undefined ? undefined : (element as EntityDefinition).attributes?.[Number(j)]
      if (j !== undefined && !attribute) return whole
      return `$.${key}${byName(element.name)}${attribute ? `.attributes${byName(attribute.name)}` : ''}`
    }
  )
}

const inside = (path: string, prefix: string | undefined) =>
  prefix !== undefined &&
  (path === prefix || path.startsWith(prefix + '.') || path.startsWith(prefix + '['))

export interface ApplyOptions {
  /** Where the request body sits in the document (`$.entities[2]`); none for deletions. */
  prefix?: string
  created?: boolean
  /** The element(s) after the change, from the model as applied (or as planned on a dry run). */
  extra?: (model: Model) => Record<string, unknown>
}

/**
 * Applies the edited model as the new `model` section (pruned: what it no longer names is
 * removed) and answers with sendResult. Problems outside the request body are renamed by
 * namedPath; on success `extra` reads the stored model (the planned one on a dry run).
 */
export async function applyModel(ctx: HttpContext, model: Model, options: ApplyOptions = {}) {
  const document = { formatVersion: 1, ...model }
  // Pinned to the version the model was read at: a concurrent change is never pruned away (the
  // caller gets 412 and reloads).
  const change = changeOptions(ctx, { pruneSections: ['model'] })
  change.expectedVersion ??= readAt.get(model)
  const result: DefinitionResult = await definitions(engine).importDocument(document, change)
  const problems: Problem[] = result.problems.map((p) =>
    inside(p.path, options.prefix) ? p : { ...p, path: namedPath(p.path, model) }
  )
  const ok = result.status === 'applied' || result.status === 'unchanged'
  const after = ok ? await loadModel() : model
  const extra = options.extra && ['applied', 'unchanged', 'dry-run'].includes(result.status)
  sendResult(
    ctx,
    { ...result, problems },
    { prefix: options.prefix, created: options.created, extra: extra ? options.extra!(after) : {} }
  )
}

/** Strips import instructions from an element shown back to the caller. */
export function shown<T extends { renamedFrom?: string }>(element: T | undefined) {
  if (!element) return null
  const copy: any = structuredClone(element)
  delete copy.renamedFrom
  if (Array.isArray(copy.attributes))
    copy.attributes = copy.attributes.map((a: any) => {
      const rest = { ...a }
      delete rest.renamedFrom
      return rest
    })
  return copy
}

export const findEntity = (model: Model, name: string) =>
  model.entities.find((e) => e.name === name)
export const findEnum = (model: Model, name: string): EnumDefinition | undefined =>
  model.enums.find((e) => e.name === name)
export const findPlan = (model: Model, entity: string, name: string) =>
  model.fetchPlans.find((p: FetchPlanDefinition) => p.entity === entity && p.name === name)

/**
 * Makes every element other than `edited` follow renamed entities and attributes (relation
 * targets, mappedBy, instance names, indexes of the renamed attribute's entity, fetch plans),
 * as the importer does for stored elements a non-pruning document leaves out.
 */
export function followRenames(model: Model, renames: Renames, edited?: EntityDefinition) {
  if (renames.entities.size === 0 && renames.attributes.size === 0) return
  const entities = model.entities.map((e) => {
    if (e === edited) return e
    const attributes = renames.attributes.get(e.name)
    return {
      ...e,
      attributes: e.attributes.map((a) => followAttribute(renames, a)),
      indexes: e.indexes?.map((index) => ({
        ...index,
        attributes: index.attributes.map((a) => attributes?.get(a) ?? a),
      })),
    }
  })
  const follow = followStored(renames, entities)
  model.entities = entities.map((e) => (e === edited ? e : follow.entity(e)))
  model.fetchPlans = model.fetchPlans.map((p) =>
    follow.plan({ ...p, entity: renames.entities.get(p.entity) ?? p.entity })
  )
}
