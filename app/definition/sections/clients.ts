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
import type { QueryClientContract } from '@adonisjs/lucid/types/database'
import type { ClientEntry } from '#oauth/client_definitions'
import type { RoleCodes } from '#security/roles_definition'
import type { DefinitionSection, Problem } from '../section.js'
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

const KINDS = [
  ['resourceRoles', 'resource'],
  ['rowLevelRoles', 'rowLevel'],
] as const

/**
 * Client role assignments name roles that exist once the change is applied: a document's entry
 * naming an unknown role is a problem, and so is a change that removes a role a kept client of
 * the database still holds (it would come back to life if a role of that code were created
 * again). Configuration clients are configuration's business.
 */
async function roleProblems(
  trx: QueryClientContract,
  entries: ClientEntry[] | undefined,
  codes: RoleCodes,
  prune: boolean
): Promise<Problem[]> {
  const problems: Problem[] = []
  const named = new Set((entries ?? []).map((e) => e.clientId))
  entries?.forEach((entry, i) => {
    for (const [key, kind] of KINDS)
      entry[key]?.forEach((code, j) => {
        if (!codes[kind].has(code))
          problems.push({ path: `$.clients[${i}].${key}[${j}]`, message: `unknown role '${code}'` })
      })
  })
  if (entries && prune) return problems
  for (const stored of await exportClientEntries(trx)) {
    if (named.has(stored.clientId)) continue
    for (const [key, kind] of KINDS)
      stored[key]?.forEach((code, j) => {
        if (!codes[kind].has(code) && codes.removed[kind].has(code))
          problems.push({
            path: `(client ${stored.clientId}).${key}[${j}]`,
            message: `role '${code}' is still assigned to client '${stored.clientId}'; remove it from the client first`,
          })
      })
  }
  return problems
}

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
      problems: [
        ...checked.problems,
        ...plan.problems,
        ...(await roleProblems(ctx.trx, entries, ctx.roleCodes!, prune)),
      ],
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
