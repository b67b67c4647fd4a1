import type { HttpContext } from '@adonisjs/core/http'
import engine from '#engine/services/engine'
import {
  describeDatatypes,
  describeEntities,
  describeEntity,
  describeEnum,
  describeEnums,
  describeFetchPlans,
  describeNamedFetchPlan,
  type MetadataViewer,
  type Model,
} from '#engine/main'
import { resolveLocale, translations, type Translations } from '#i18n/main'
import { permissionsFor } from '#security/main'
import { MISSING_TOKEN, unauthorized } from '#oauth/resource_server'
import { sendTagged, tagDocument, type TaggedDocument } from '#controllers/rest/etag'
import { routeParam } from './route_params.js'

/**
 * Rendered documents, per translations (memoized by i18n per model version, stored-messages
 * generation and locale: a new model or an edited translation starts afresh) and per policy key
 * (what the caller may see). Only found documents are cached: keys are bounded by the model.
 */
const documents = new WeakMap<Translations, Map<string, TaggedDocument>>()

const notFound = (ctx: HttpContext, error: string, details: string) =>
  ctx.response.status(404).send({ error, details })

/** Which upstream 404 a lookup ends with. */
type Missing = 'entity' | 'plan' | 'enum'

/**
 * `/rest/metadata/*` (reference 8.1-8.4): thin adapter over app/engine/metadata/describe.ts.
 * Every answer is the current model version's, in the request locale, as the caller may see it.
 */
export default class MetadataController {
  /** The cached document `key`, or `describe`'s result rendered, tagged and cached. */
  async #document(
    ctx: HttpContext,
    key: string,
    describe: (model: Model, viewer: MetadataViewer) => object | Missing
  ): Promise<TaggedDocument | Missing> {
    const permissions = await permissionsFor(ctx.subject!)
    const model = engine.model
    const locale = resolveLocale(ctx)
    const texts = translations(locale)
    if (!documents.has(texts)) documents.set(texts, new Map())
    const cache = documents.get(texts)!
    const cacheKey = `${permissions.key}\u0000${key}`
    const cached = cache.get(cacheKey)
    if (cached) return cached
    const found = describe(model, {
      caption: (k) => texts.text(k),
      canRead: (entity) => permissions.canRead(entity),
      canView: (entity, attribute) => permissions.canView(entity, attribute),
    })
    if (typeof found === 'string') return found
    const document = tagDocument(found, model.version, locale)
    cache.set(cacheKey, document)
    return document
  }

  async #respond(
    ctx: HttpContext,
    pending: Promise<TaggedDocument | Missing>,
    entity = '',
    name = ''
  ) {
    const found = await pending
    if (found === 'entity') return notFound(ctx, 'Entity not found', `Entity ${entity} not found`)
    if (found === 'plan') {
      const details = `Fetch plan ${name} for metaClass ${entity} not found`
      return notFound(ctx, 'Fetch plan not found', details)
    }
    if (found === 'enum')
      return notFound(ctx, 'Enum not found', `Enum with class name ${name} not found`)
    return sendTagged(ctx, found)
  }

  async entities(ctx: HttpContext) {
    if (!ctx.subject) return unauthorized(ctx, MISSING_TOKEN)
    return this.#respond(ctx, this.#document(ctx, 'entities', describeEntities))
  }

  async entity(ctx: HttpContext) {
    if (!ctx.subject) return unauthorized(ctx, MISSING_TOKEN)
    const entity = routeParam(ctx, 'entity')
    const found = this.#document(
      ctx,
      `entity\u0000${entity}`,
      (model, viewer) => describeEntity(model, entity, viewer) ?? 'entity'
    )
    return this.#respond(ctx, found, entity)
  }

  async fetchPlans(ctx: HttpContext) {
    if (!ctx.subject) return unauthorized(ctx, MISSING_TOKEN)
    const entity = routeParam(ctx, 'entity')
    const found = this.#document(
      ctx,
      `plans\u0000${entity}`,
      (model, viewer) => describeFetchPlans(model, entity, viewer) ?? 'entity'
    )
    return this.#respond(ctx, found, entity)
  }

  async fetchPlan(ctx: HttpContext) {
    if (!ctx.subject) return unauthorized(ctx, MISSING_TOKEN)
    const entity = routeParam(ctx, 'entity')
    const plan = routeParam(ctx, 'plan')
    const found = this.#document(ctx, `plan\u0000${entity}\u0000${plan}`, (model, viewer) =>
      describeNamedFetchPlan(model, entity, plan, viewer)
    )
    return this.#respond(ctx, found, entity, plan)
  }

  async enums(ctx: HttpContext) {
    if (!ctx.subject) return unauthorized(ctx, MISSING_TOKEN)
    return this.#respond(ctx, this.#document(ctx, 'enums', describeEnums))
  }

  async enum(ctx: HttpContext) {
    if (!ctx.subject) return unauthorized(ctx, MISSING_TOKEN)
    const fqn = routeParam(ctx, 'fqn')
    const found = this.#document(
      ctx,
      `enum\u0000${fqn}`,
      (model, viewer) => describeEnum(model, fqn, viewer) ?? 'enum'
    )
    return this.#respond(ctx, found, '', fqn)
  }

  async datatypes(ctx: HttpContext) {
    if (!ctx.subject) return unauthorized(ctx, MISSING_TOKEN)
    return this.#respond(ctx, this.#document(ctx, 'datatypes', describeDatatypes))
  }
}
