/**
 * `clients`: database-managed OAuth clients (app/oauth/client_definitions.ts). Secrets are
 * stored as digests; a secret the change generates is returned once in the result.
 */
import vine from '@vinejs/vine'
import {
  applyClientEntries,
  checkClientEntries,
  exportClientEntries,
  planClientEntries,
} from '#oauth/client_definitions'
import type { DefinitionSection } from '../section.js'
import { arrayOf, keysOf } from '../shape.js'

const strings = () => vine.array(vine.string())
/** Enumerations, durations and URIs are checked by the client rules (app/oauth/client_rules). */
const client = vine.object({
  clientId: vine.string().trim().minLength(1),
  clientSecret: vine.string().optional(),
  clientSecretHash: vine.string().optional(),
  authenticationMethods: strings().optional(),
  grantTypes: strings().optional(),
  redirectUris: strings().optional(),
  requireProofKey: vine.boolean({ strict: true }).optional(),
  accessTokenFormat: vine.string().optional(),
  accessTokenTimeToLive: vine.string().optional(),
  refreshTokenTimeToLive: vine.string().optional(),
  resourceRoles: strings().optional(),
  rowLevelRoles: strings().optional(),
})

export const clientsSection: DefinitionSection = {
  name: 'clients',
  keys: {
    clients: {
      schema: vine.array(client),
      shape: arrayOf(keysOf(client)),
      element: (c) => c.clientId,
    },
  },

  async plan(ctx) {
    const entries = ctx.document.clients
    const prune = ctx.pruned('clients')
    const checked = checkClientEntries(entries ?? [])
    const plan = await planClientEntries(ctx.trx, entries, checked.settings, prune)
    return {
      problems: [...checked.problems, ...plan.problems],
      changes: plan.changes,
      async apply(trx) {
        const written = await applyClientEntries(trx, entries, checked.settings, prune)
        return { changed: written.changed, secrets: written.secrets }
      },
    }
  },

  async export(connection) {
    const clients = await exportClientEntries(connection)
    return clients.length ? { clients } : {}
  },
}
