/**
 * `resourceRoles` and `rowLevelRoles` (app/security/roles_definition.ts): checked against the
 * model as the change leaves it; the role codes that will exist are shared with later sections
 * (user and client assignments).
 */
import vine from '@vinejs/vine'
import { Model } from '#engine/metadata/model'
import { applyRoles, exportRoles, planRoles } from '#security/roles_definition'
import type { DefinitionSection } from '../section.js'
import { arrayOf, keysOf } from '../shape.js'

const str = () => vine.string().trim().minLength(1)
const strings = () => vine.array(vine.string())

const entityPolicy = vine.object({ entity: str(), actions: strings() })
const attributePolicy = vine.object({ entity: str(), attributes: strings(), action: vine.string() })
/** Enumerations, codes and filters are checked by app/security/roles_definition. */
const resourceRole = vine.object({
  code: str(),
  name: vine.string().optional(),
  description: vine.string().optional(),
  scopes: strings().optional(),
  childRoles: strings().optional(),
  entityPolicies: vine.array(entityPolicy).optional(),
  attributePolicies: vine.array(attributePolicy).optional(),
  specificPolicies: strings().optional(),
})

const rowLevelPolicy = vine.object({
  entity: str(),
  type: vine.string(),
  actions: strings(),
  filter: vine.any(),
})

const rowLevelRole = vine.object({
  code: str(),
  name: vine.string().optional(),
  description: vine.string().optional(),
  policies: vine.array(rowLevelPolicy).optional(),
})

export const rolesSection: DefinitionSection = {
  name: 'roles',
  keys: {
    resourceRoles: {
      schema: vine.array(resourceRole),
      shape: arrayOf(keysOf(resourceRole), {
        entityPolicies: keysOf(entityPolicy),
        attributePolicies: keysOf(attributePolicy),
      }),
      element: (r) => r.code,
    },
    rowLevelRoles: {
      schema: vine.array(rowLevelRole),
      shape: arrayOf(keysOf(rowLevelRole), { policies: keysOf(rowLevelPolicy) }),
      element: (r) => r.code,
    },
  },

  async plan(ctx) {
    const plan = await planRoles(
      ctx.trx,
      new Model(0, ctx.model!.definition),
      ctx.document.resourceRoles,
      ctx.document.rowLevelRoles,
      ctx.pruned('roles')
    )
    ctx.roleCodes = plan.codes
    return {
      problems: plan.problems,
      changes: plan.changes,
      apply: async (trx) => ({ changed: await applyRoles(trx, plan) }),
    }
  },

  async export(client) {
    // Stored roles only: built-in ones are not stored.
    const { resourceRoles, rowLevelRoles } = await exportRoles(client)
    return {
      ...(resourceRoles.length ? { resourceRoles } : {}),
      ...(rowLevelRoles.length ? { rowLevelRoles } : {}),
    }
  },
}
