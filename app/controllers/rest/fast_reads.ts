/**
 * The fast path of entity reads (issue 24): `GET /rest/entities/{entity}`, `.../{id}` and
 * `.../search?filter=` answered in front of the framework, for the requests whose whole answer
 * is known to be the same as the framework's. Per request the framework builds a context, a
 * request, a response and a child logger, matches the route, runs two middleware stacks and
 * resolves the controller through the container: answering in front of it lowered the server's
 * CPU per request by a fifth on a load by id and by a quarter on a list of 20 (PostgreSQL,
 * `bench:entities` with and without MODELGATE_FAST_READS=false).
 *
 * It serves only what it fully understands, and hands everything else to the framework untouched
 * (nothing read from the request, nothing written): any other method or path shape, an `Origin`
 * (CORS), a body, an `Accept` the API does not serve, zero or several `Authorization` headers, a
 * token not verified before (the framework verifies it and caches the subject), a URL the
 * patterns leave open, `access_token` or a NUL in the query string, a subject without
 * `rest.enabled`, and every read that ends in a DataError (404, 403, 400: the framework redoes
 * it and writes the upstream error). The checks are the resource server's and the router
 * middleware's own functions, except the path firewall's, which every path this serves passes
 * by its shape (`PATH`), unless longer than the firewall allows. An unexpected error (the
 * database down or slow) is answered by the application's exception handler, as the framework
 * would, without running the read twice.
 *
 * A 200 carries what the framework's carries: the JSON text of the read pipeline,
 * `Content-Type: application/json;charset=UTF-8`, `X-Total-Count` when asked, `X-Request-Id`,
 * `X-Content-Type-Options: nosniff`; it is in the access log and the HTTP metrics under its
 * route pattern. `tests/functional/entities_fast_reads.spec.ts` compares status, headers and
 * body of both paths. MODELGATE_FAST_READS=false turns it off.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { performance } from 'node:perf_hooks'
import qs from 'qs'
import app from '@adonisjs/core/services/app'
import logger from '@adonisjs/core/services/logger'
import server from '@adonisjs/core/services/server'
import env from '#start/env'
import engine from '#engine/services/engine'
import { DataError } from '#engine/data/errors'
import { filterFromQuery, optionsFromQuery } from '#engine/data/read/params'
import { permissionsFor } from '#security/main'
import { cachedSubject } from '#oauth/token_verifier'
import { classifyPath, credentialsOf } from '#oauth/resource_server'
import { MAX_PATH_LENGTH } from '#oauth/url_patterns'
import { acceptsJson } from '#middleware/accept_json_middleware'
import { holdsNul } from '#changes/db_values'
import { requestLocale } from '#i18n/main'
import { RequestRecorder, requestIdOf } from '#operations/request_context_middleware'
import type { ListOptions } from '#engine/data/data_manager'
import { dataManagerFor } from './data_access.js'

type Handler = (req: IncomingMessage, res: ServerResponse) => void

/** Response texts longer than this (UTF-16 units) are encoded once into a buffer. */
const LARGE_BODY = 16 * 1024

/** Entity names and ids made of these characters only; anything else goes to the framework. */
const PATH = /^\/rest\/entities\/([A-Za-z_][A-Za-z0-9_$]*)(?:\/([A-Za-z0-9_-]+))?$/

/**
 * Whether the fast path runs (MODELGATE_FAST_READS), how many requests it answered and how many
 * of its reads failed with an unexpected error (answered by the exception handler).
 */
export const fastReads = {
  enabled: env.get('MODELGATE_FAST_READS') !== false,
  served: 0,
  errors: 0,
}

/** Made on the first request (the configuration is read after the application booted). */
let parts: { qsOptions: qs.IParseOptions; recorder: RequestRecorder } | undefined

function partsOf() {
  return (parts ??= {
    // The framework's query-string parser options (config/app.ts, with its defaults).
    qsOptions: app.config.get<{ qs: { parse: qs.IParseOptions } }>('app.http').qs.parse,
    recorder: new RequestRecorder(),
  })
}

interface ParsedQuery {
  /** The read options (a new object per call); throws the DataError of a malformed value. */
  options(): ListOptions
}

/** Parsed query strings (with and without the search filter), at most QUERY_CACHE_SIZE. */
const queries = new Map<string, ParsedQuery | null>()
const QUERY_CACHE_SIZE = 500

/**
 * The query string as the framework parses it, null when the fast path must not answer it (a
 * token or a NUL in it). Remembered per text: clients repeat the same few query strings.
 */
function queryOf(text: string, search: boolean): ParsedQuery | null {
  const key = search ? `s${text}` : `l${text}`
  let parsed = queries.get(key)
  if (parsed !== undefined) return parsed
  const query = text === '' ? {} : qs.parse(text, partsOf().qsOptions)
  if (Object.hasOwn(query, 'access_token') || holdsNul(query)) parsed = null
  else {
    let error: unknown
    let options: ListOptions | undefined
    try {
      options = optionsFromQuery(query)
      if (search) options.filter = filterFromQuery(query)
    } catch (e) {
      error = e
    }
    parsed = {
      options: () => {
        if (error) throw error
        return { ...options }
      },
    }
  }
  // Objects (`fetchPlan[x]=` bracket syntax) are parsed again each time: nothing shares them.
  // Nor are long texts kept (the cache stays a few hundred kilobytes at most).
  if (text.length > 1024 || Object.values(query).some((v) => typeof v === 'object')) return parsed
  if (queries.size >= QUERY_CACHE_SIZE) queries.delete(queries.keys().next().value!)
  queries.set(key, parsed)
  return parsed
}

/** Exactly one `Authorization` header (several are the resource server's 401). */
function singleAuthorization(raw: string[]): boolean {
  let count = 0
  for (let i = 0; i < raw.length; i += 2)
    if (raw[i].length === 13 && raw[i].toLowerCase() === 'authorization') count++
  return count === 1
}

/** The framework's handler wrapped with the fast path (the Node server's request listener). */
export function withFastReads(handler: Handler): Handler {
  return (req, res) => {
    if (!fastReads.enabled || req.method !== 'GET' || !req.url!.startsWith('/rest/entities/'))
      return handler(req, res)
    serve(req, res).then(
      (served) => {
        if (!served) handler(req, res)
      },
      (error) => answerError(error, req, res)
    )
  }
}

/** Answers the request and resolves true, or resolves false with nothing read or written. */
async function serve(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
  const start = performance.now()
  const h = req.headers
  if (h.origin !== undefined || h['content-length'] !== undefined) return false
  if (h['transfer-encoding'] !== undefined || !acceptsJson(h.accept)) return false
  if (!singleAuthorization(req.rawHeaders)) return false

  const url = req.url!
  const q = url.indexOf('?')
  const path = q === -1 ? url : url.slice(0, q)
  const match = PATH.exec(path)
  if (!match || url.includes('#') || path.length > MAX_PATH_LENGTH) return false
  // The firewall's check (inspectRequestPath) passes every path PATH matches as it is: letters,
  // digits, `_`, `$` and `-` only, so no escape, no dot or empty segment, no trailing slash.
  if (classifyPath(path, path, true) === 'open') return false

  const credentials = credentialsOf([h.authorization!])
  if (!credentials || !('token' in credentials)) return false
  const subject = cachedSubject(credentials.token, engine.securityVersion)
  if (!subject) return false

  const [, entity, id] = match
  const { recorder } = partsOf()
  const parsed = queryOf(q === -1 ? '' : url.slice(q + 1), id === 'search')
  if (!parsed) return false
  const permissions = await permissionsFor(subject)
  if (!permissions.specific('rest.enabled')) return false

  const data = dataManagerFor(subject, permissions, () =>
    requestLocale(h['accept-language'], subject)
  )
  let json: string
  let total: number | undefined
  let route: string
  try {
    const options = parsed.options()
    if (id === undefined || id === 'search') {
      ;({ json, total } = await data.listJson(entity, options))
      route = id ? '/rest/entities/:entity/search' : '/rest/entities/:entity'
    } else {
      json = await data.loadJson(entity, id, options)
      route = '/rest/entities/:entity/:id'
    }
  } catch (error) {
    if (error instanceof DataError) return false
    throw error
  }

  const { id: requestId } = requestIdOf(req)
  // A large text goes as one UTF-8 copy, written after the headers as it is: a string would be
  // measured (flattened) for Content-Length, then joined to the header text and flattened
  // again. A small one goes with the headers in one write.
  const body = json.length > LARGE_BODY ? Buffer.from(json) : json
  const bytes = typeof body === 'string' ? Buffer.byteLength(body) : body.length
  const headers: Record<string, string | number> = {
    'X-Request-Id': requestId,
    'X-Content-Type-Options': 'nosniff',
    'Content-Type': 'application/json;charset=UTF-8',
    'Content-Length': bytes,
  }
  if (total !== undefined) headers['X-Total-Count'] = String(total)
  if (recorder.active) {
    res.once('close', () =>
      recorder.finished({
        res,
        start,
        method: 'GET',
        route,
        path,
        logger: logger.child({ request_id: requestId }),
        bytes,
      })
    )
  }
  fastReads.served++
  res.writeHead(200, headers)
  res.end(body)
  return true
}

/**
 * An unexpected error of a fast read (the database down, a statement timeout): the application's
 * exception handler answers it through a framework context, as it would have on the slow path,
 * with the headers every response carries.
 */
async function answerError(error: unknown, req: IncomingMessage, res: ServerResponse) {
  fastReads.errors++
  try {
    // The id first: the context's logger is made with it.
    res.setHeader('X-Request-Id', requestIdOf(req).id)
    const request = server.createRequest(req, res)
    const response = server.createResponse(req, res)
    const ctx = server.createHttpContext(request, response, app.container.createResolver())
    const { default: Handler } = await import('#exceptions/handler')
    const handler = await app.container.make(Handler)
    ctx.response.header('X-Content-Type-Options', 'nosniff')
    await handler.report(error, ctx)
    await handler.handle(error, ctx)
    ctx.response.finish()
  } catch (failure) {
    logger.fatal({ err: failure }, 'the fast read path could not answer an error')
    if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'application/json;charset=UTF-8' })
    res.end('{"error":"Server error","details":"Server error"}')
  }
}
