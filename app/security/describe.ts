/**
 * The `GET /rest/permissions` document (reference 8.6): only what is granted, for every entity
 * and attribute of the current model and every specific policy this server knows.
 */
import type { Model } from '#engine/metadata/model'
import type { Permissions } from './policy_index.js'
import { SPECIFIC_POLICIES } from './roles_store.js'

interface Granted {
  target: string
  value: number
}

export function describePermissions(model: Model, permissions: Permissions) {
  const entities: Granted[] = []
  const entityAttributes: Granted[] = []
  for (const entity of model.entities.values()) {
    for (const op of ['create', 'read', 'update', 'delete'] as const) {
      if (permissions.canDo(entity.name, op))
        entities.push({ target: `${entity.name}:${op}`, value: 1 })
    }
    for (const a of entity.attributeList) {
      const level = permissions.attribute(entity.name, a.name)
      if (level > 0) entityAttributes.push({ target: `${entity.name}:${a.name}`, value: level })
    }
  }
  const specifics = SPECIFIC_POLICIES.filter(
    (name) => name !== '*' && permissions.specific(name)
  ).map((target) => ({ target, value: 1 }))
  return { authorities: [...permissions.authorities], entities, entityAttributes, specifics }
}
