import type { HttpContext } from '@adonisjs/core/http'
import type { EnumDefinition } from '#engine/main'
import { notFound, sendVersion } from './admin_http.js'
import { applyModel, conflict, findEnum, loadModel, objectBody, param } from './model_changes.js'

/**
 * Enums edited one at a time (README "Admin API"). Enum names contain dots
 * (`com.example.Status`): one path segment. Attributes store value ids, so renaming an enum
 * (a different body `name`) only moves the attributes that use it to the new name.
 */
export default class EnumsController {
  async index(ctx: HttpContext) {
    const model = await loadModel()
    await sendVersion(ctx)
    return model.enums
  }

  async show(ctx: HttpContext) {
    const model = await loadModel()
    const found = findEnum(model, param(ctx, 'name'))
    if (!found) return notFound(ctx, `enum '${param(ctx, 'name')}'`)
    await sendVersion(ctx)
    return found
  }

  async store(ctx: HttpContext) {
    const body = objectBody(ctx)
    if (!body) return
    const model = await loadModel()
    if (typeof body.name === 'string' && findEnum(model, body.name))
      return conflict(ctx, `enum '${body.name}'`)
    const i = model.enums.push(body as EnumDefinition) - 1
    await applyModel(ctx, model, {
      prefix: `$.enums[${i}]`,
      created: true,
      extra: (after) => ({ enum: findEnum(after, body.name) ?? null }),
    })
  }

  async update(ctx: HttpContext) {
    const name = param(ctx, 'name')
    const body = objectBody(ctx)
    if (!body) return
    const model = await loadModel()
    const i = model.enums.findIndex((e) => e.name === name)
    if (i < 0) return notFound(ctx, `enum '${name}'`)
    body.name ??= name
    if (typeof body.name === 'string' && body.name !== name) {
      if (findEnum(model, body.name)) return conflict(ctx, `enum '${body.name}'`)
      for (const entity of model.entities)
        for (const attribute of entity.attributes)
          if (attribute.type === 'enum' && attribute.enum === name) attribute.enum = body.name
    }
    model.enums[i] = body as EnumDefinition
    await applyModel(ctx, model, {
      prefix: `$.enums[${i}]`,
      extra: (after) => ({ enum: findEnum(after, body.name) ?? null }),
    })
  }

  /** Attributes still using the enum make it a 422 naming them. */
  async destroy(ctx: HttpContext) {
    const name = param(ctx, 'name')
    const model = await loadModel()
    if (!findEnum(model, name)) return notFound(ctx, `enum '${name}'`)
    model.enums = model.enums.filter((e) => e.name !== name)
    await applyModel(ctx, model)
  }
}
