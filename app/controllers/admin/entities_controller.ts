import type { HttpContext } from '@adonisjs/core/http'
import type { AttributeDefinition, EntityDefinition } from '#engine/main'
import { tableNameFor } from '#engine/metadata/naming'
import { invalidPayload, notFound, sendVersion } from './admin_http.js'
import {
  applyModel,
  conflict,
  findEntity,
  followRenames,
  loadModel,
  objectBody,
  param,
  shown,
  type Model,
} from './model_changes.js'

const withTable = (e: EntityDefinition) => ({ ...e, table: e.table ?? tableNameFor(e.name) })

/** The entity (as stored, with its table) and, for attribute endpoints, the attribute. */
const shownEntity = (model: Model, name: string) => {
  const entity = findEntity(model, name)
  return entity ? withTable(shown(entity)) : null
}

const attributeNamed = (entity: EntityDefinition | undefined, name: string) =>
  entity?.attributes.find((a) => a.name === name)

/**
 * Entities, their attributes and indexes, edited one at a time (README "Admin API"): each edit
 * is a copy of the whole model with the one element changed, applied as the pruned `model`
 * section through the definition door; renames keep data (`renamedFrom`) and the rest of the
 * model follows them.
 */
export default class EntitiesController {
  async index(ctx: HttpContext) {
    const model = await loadModel()
    await sendVersion(ctx)
    return model.entities.map(withTable)
  }

  async show(ctx: HttpContext) {
    const model = await loadModel()
    const entity = findEntity(model, param(ctx, 'name'))
    if (!entity) return notFound(ctx, `entity '${param(ctx, 'name')}'`)
    await sendVersion(ctx)
    return withTable(entity)
  }

  async store(ctx: HttpContext) {
    const body = objectBody(ctx)
    if (!body) return
    const model = await loadModel()
    if (typeof body.name === 'string' && findEntity(model, body.name))
      return conflict(ctx, `entity '${body.name}'`)
    delete body.renamedFrom
    const i = model.entities.push(body as EntityDefinition) - 1
    await applyModel(ctx, model, {
      prefix: `$.entities[${i}]`,
      created: true,
      extra: (after) => ({ entity: shownEntity(after, body.name) }),
    })
  }

  /** Replaces the definition exactly; a different body `name` renames (the table is kept). */
  async update(ctx: HttpContext) {
    const name = param(ctx, 'name')
    const body = objectBody(ctx)
    if (!body) return
    const model = await loadModel()
    const i = model.entities.findIndex((e) => e.name === name)
    if (i < 0) return notFound(ctx, `entity '${name}'`)
    body.name ??= name
    delete body.renamedFrom
    const renamed = typeof body.name === 'string' && body.name !== name
    if (renamed) {
      if (findEntity(model, body.name)) return conflict(ctx, `entity '${body.name}'`)
      body.renamedFrom = name
    }
    const entity = body as EntityDefinition
    model.entities[i] = entity
    if (Array.isArray(entity.attributes)) {
      const attributeRenames = entity.attributes.filter(
        (a) => a && typeof a.renamedFrom === 'string' && a.renamedFrom !== a.name
      )
      followRenames(
        model,
        {
          entities: new Map(renamed ? [[name, body.name]] : []),
          attributes: new Map(
            attributeRenames.length
              ? [[body.name, new Map(attributeRenames.map((a) => [a.renamedFrom!, a.name]))]]
              : []
          ),
        },
        entity
      )
    }
    await applyModel(ctx, model, {
      prefix: `$.entities[${i}]`,
      extra: (after) => ({ entity: shownEntity(after, body.name) }),
    })
  }

  /** Deletes the entity and its fetch plans (relations of other entities to it are problems). */
  async destroy(ctx: HttpContext) {
    const name = param(ctx, 'name')
    const model = await loadModel()
    if (!findEntity(model, name)) return notFound(ctx, `entity '${name}'`)
    model.entities = model.entities.filter((e) => e.name !== name)
    model.fetchPlans = model.fetchPlans.filter((p) => p.entity !== name)
    await applyModel(ctx, model)
  }

  async storeAttribute(ctx: HttpContext) {
    const name = param(ctx, 'name')
    const body = objectBody(ctx)
    if (!body) return
    const model = await loadModel()
    const i = model.entities.findIndex((e) => e.name === name)
    if (i < 0) return notFound(ctx, `entity '${name}'`)
    const entity = model.entities[i]
    if (typeof body.name === 'string' && attributeNamed(entity, body.name))
      return conflict(ctx, `attribute '${name}.${body.name}'`)
    delete body.renamedFrom
    const j = entity.attributes.push(body as AttributeDefinition) - 1
    await applyModel(ctx, model, {
      prefix: `$.entities[${i}].attributes[${j}]`,
      created: true,
      extra: (after) => this.#attributeExtra(after, name, body.name),
    })
  }

  /** Replaces one attribute; a different body `name` renames it (the column and data are kept). */
  async updateAttribute(ctx: HttpContext) {
    const name = param(ctx, 'name')
    const attributeName = param(ctx, 'attribute')
    const body = objectBody(ctx)
    if (!body) return
    const model = await loadModel()
    const i = model.entities.findIndex((e) => e.name === name)
    const entity = model.entities[i]
    const j = entity ? entity.attributes.findIndex((a) => a.name === attributeName) : -1
    if (j < 0) return notFound(ctx, `attribute '${name}.${attributeName}'`)
    body.name ??= attributeName
    delete body.renamedFrom
    if (typeof body.name === 'string' && body.name !== attributeName) {
      if (attributeNamed(entity, body.name))
        return conflict(ctx, `attribute '${name}.${body.name}'`)
      body.renamedFrom = attributeName
      entity.attributes[j] = body as AttributeDefinition
      const attributes = new Map([[name, new Map([[attributeName, body.name as string]])]])
      followRenames(model, { entities: new Map(), attributes })
    } else entity.attributes[j] = body as AttributeDefinition
    await applyModel(ctx, model, {
      prefix: `$.entities[${i}].attributes[${j}]`,
      extra: (after) => this.#attributeExtra(after, name, body.name),
    })
  }

  async destroyAttribute(ctx: HttpContext) {
    const name = param(ctx, 'name')
    const attributeName = param(ctx, 'attribute')
    const model = await loadModel()
    const entity = findEntity(model, name)
    if (!attributeNamed(entity, attributeName))
      return notFound(ctx, `attribute '${name}.${attributeName}'`)
    entity!.attributes = entity!.attributes.filter((a) => a.name !== attributeName)
    await applyModel(ctx, model, { extra: (after) => ({ entity: shownEntity(after, name) }) })
  }

  /** Replaces the entity's index list. */
  async updateIndexes(ctx: HttpContext) {
    const name = param(ctx, 'name')
    const body = ctx.request.body()
    const model = await loadModel()
    const i = model.entities.findIndex((e) => e.name === name)
    if (i < 0) return notFound(ctx, `entity '${name}'`)
    if (!Array.isArray(body))
      return invalidPayload(ctx, [{ path: '$', message: 'must be an array of indexes' }])
    model.entities[i].indexes = body
    await applyModel(ctx, model, {
      prefix: `$.entities[${i}].indexes`,
      extra: (after) => ({ entity: shownEntity(after, name) }),
    })
  }

  #attributeExtra(model: Model, entity: string, attribute: string) {
    const shownOne = shownEntity(model, entity)
    return { entity: shownOne, attribute: attributeNamed(shownOne ?? undefined, attribute) ?? null }
  }
}
