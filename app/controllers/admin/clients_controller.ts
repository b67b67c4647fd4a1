import type { HttpContext } from '@adonisjs/core/http'
import db from '@adonisjs/lucid/services/db'
import engine from '#engine/services/engine'
import OAuthClient from '#models/oauth_client'
import { readVersion } from '#changes/versions'
import { definitions, recordAction, type DefinitionResult } from '#definition/main'
import { findClient, registrationOf, revokeClientTokens } from '#oauth/clients'
import { randomToken } from '#oauth/secrets'
import { routeParam } from '#controllers/rest/route_params'
import {
  adminError,
  changeOptions,
  invalidPayload,
  notFound,
  sendResult,
  sendVersion,
} from './admin_http.js'

/** Where the one entry of a built document sits: its problems are rebased onto the body. */
const ENTRY = '$.clients[0]'
const ROLLBACK = Symbol('rollback')

type Entry = Record<string, unknown>
/** A built change, or null when the builder has answered the request itself (404, 409). */
type Built = { document: Record<string, unknown>; pruneSections?: string[] } | null

const isObject = (value: unknown): value is Entry =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** A client as the admin API shows it: its registration, never its secret or digest. */
function view(client: OAuthClient) {
  const registration: Entry = { ...registrationOf(client) }
  delete registration.clientSecretHash
  const config = client.managedBy === 'config'
  return {
    ...registration,
    managedBy: client.managedBy,
    ...(config ? { configName: client.configName } : {}),
    readOnly: config,
    public: client.authenticationMethods.includes('none'),
    active: client.active,
  }
}

function configManaged(ctx: HttpContext, client: OAuthClient) {
  adminError(
    ctx,
    409,
    'Managed by configuration',
    `client '${client.clientId}' is managed by configuration (svc.authserver.client.${client.configName}.*) and is read-only here; change its properties instead. Nothing was changed`
  )
}

/** The client id of the URL, percent-decoded (ids may hold `@`, `~`). */
const idOf = (ctx: HttpContext) => routeParam(ctx, 'clientId')

/** The client a change names: null (answered 404 or 409) unless it is database-managed. */
async function editable(ctx: HttpContext): Promise<OAuthClient | null> {
  const client = await findClient(idOf(ctx))
  if (!client) notFound(ctx, `client '${idOf(ctx)}'`)
  else if (client.managedBy === 'config') configManaged(ctx, client)
  else return client
  return null
}

const single = (entry: Entry): Built => ({ document: { formatVersion: 1, clients: [entry] } })

/** Answers a change; a generated secret appears once, as `secret`, never in `secrets`. */
async function answer(
  ctx: HttpContext,
  result: DefinitionResult,
  options: { clientId?: string; created?: boolean; secret?: string } = {}
) {
  const { secrets, ...rest } = result
  const applied = result.status === 'applied'
  const secret = applied ? (options.secret ?? secrets?.[0]?.secret) : undefined
  const client = applied ? await findClient(options.clientId ?? idOf(ctx)) : null
  sendResult(ctx, rest, {
    prefix: ENTRY,
    created: options.created,
    extra: { ...(client ? { client: view(client) } : {}), ...(secret ? { secret } : {}) },
  })
}

/**
 * OAuth clients over the admin API (README "Admin API"): database-managed clients are edited
 * through the `clients` section of the definition (audited, versioned); configuration-managed
 * ones (properties, the console's own client) are listed read-only.
 */
export default class ClientsController {
  async index(ctx: HttpContext) {
    const clients = await OAuthClient.query().orderBy('client_id')
    await sendVersion(ctx)
    return clients.map(view)
  }

  async show(ctx: HttpContext) {
    const client = await findClient(idOf(ctx))
    if (!client) return notFound(ctx, `client '${idOf(ctx)}'`)
    await sendVersion(ctx)
    return view(client)
  }

  async store(ctx: HttpContext) {
    const body = ctx.request.body()
    if (!isObject(body)) return invalidPayload(ctx, [{ path: '$', message: 'must be an object' }])
    const id = typeof body.clientId === 'string' ? body.clientId.trim() : undefined
    const result = await this.#pinned(ctx, async () => {
      const existing = id ? await findClient(id) : null
      if (!existing) return single(body)
      adminError(ctx, 409, 'Conflict', `client '${id}' already exists; nothing was changed`)
      return null
    })
    if (result) await answer(ctx, result, { clientId: id ?? '', created: true })
  }

  async update(ctx: HttpContext) {
    const body = ctx.request.body()
    if (!isObject(body)) return invalidPayload(ctx, [{ path: '$', message: 'must be an object' }])
    const clientId = idOf(ctx)
    if (body.clientId !== undefined && body.clientId !== clientId)
      return invalidPayload(ctx, [
        { path: '$.clientId', message: `must be '${clientId}' (the client of the URL) or absent` },
      ])
    const result = await this.#pinned(ctx, async () =>
      (await editable(ctx)) ? single({ ...body, clientId }) : null
    )
    if (result) await answer(ctx, result)
  }

  async destroy(ctx: HttpContext) {
    const result = await this.#pinned(ctx, async () => {
      if (!(await editable(ctx))) return null
      const exported = await definitions(engine).exportDocument()
      const clients = (exported.clients ?? []) as Entry[]
      const rest = clients.filter((c) => c.clientId !== idOf(ctx))
      return { document: { formatVersion: 1, clients: rest }, pruneSections: ['clients'] }
    })
    if (result) await answer(ctx, result)
  }

  /** A new generated secret as a definition change (audited, versioned), returned once. */
  async rotateSecret(ctx: HttpContext) {
    const secret = randomToken(32)
    const result = await this.#pinned(ctx, async () => {
      const client = await editable(ctx)
      if (!client) return null
      if (client.authenticationMethods.includes('none')) {
        adminError(ctx, 409, 'Public client', `client '${client.clientId}' has no secret`)
        return null
      }
      const entry: Entry = { ...registrationOf(client), clientSecret: secret }
      delete entry.clientSecretHash
      return single(entry)
    })
    if (result) await answer(ctx, result, { secret })
  }

  /**
   * Revokes every token of the client without changing its registration: not a definition
   * change (the version stays), but audited like one, in the same transaction.
   */
  async revokeTokens(ctx: HttpContext) {
    const options = changeOptions(ctx)
    const clientId = idOf(ctx)
    let outcome: { status: number; version: number; revoked?: number; auditId?: number } = {
      status: 404,
      version: 0,
    }
    try {
      await db.transaction(async (trx) => {
        outcome.version = await readVersion(trx, 'definition')
        const expected = options.expectedVersion
        if (expected !== undefined && expected !== outcome.version) {
          outcome.status = 412
          throw ROLLBACK
        }
        const revoked = await revokeClientTokens(clientId, trx)
        if (revoked === null) throw ROLLBACK
        outcome = { ...outcome, status: 200, revoked }
        // A dry run does the same work and rolls it back: the count is the real one.
        if (options.dryRun) throw ROLLBACK
        outcome.auditId = await recordAction(trx, {
          author: options.author!,
          source: options.source!,
          summary: `client ${clientId}: ${revoked} token(s) revoked`,
          element: { section: 'clients', element: clientId, change: 'changed', after: { revoked } },
        })
      })
    } catch (error) {
      if (error !== ROLLBACK) throw error
    }
    await sendVersion(ctx, outcome.version)
    if (outcome.status === 404) return notFound(ctx, `client '${clientId}'`)
    if (outcome.status === 412)
      return adminError(
        ctx,
        412,
        'Precondition failed',
        `the definition changed since the version in If-Match (now ${outcome.version}); reload and retry`
      )
    return {
      status: options.dryRun ? 'dry-run' : 'applied',
      revoked: outcome.revoked,
      ...(outcome.auditId ? { auditId: outcome.auditId } : {}),
    }
  }

  /** A change built from what is stored now, pinned to its version (Definitions). */
  async #pinned(ctx: HttpContext, build: () => Promise<Built>): Promise<DefinitionResult | null> {
    const options = changeOptions(ctx)
    // Read by importFromCurrent after build: a delete prunes the clients section.
    return definitions(engine).importFromCurrent(async () => {
      const built = await build()
      options.pruneSections = built?.pruneSections
      return built ? built.document : null
    }, options)
  }
}
