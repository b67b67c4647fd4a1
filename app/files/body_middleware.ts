/**
 * Keeps the body parser away from raw uploads. `POST /rest/files` takes the raw file with any
 * Content-Type; the body parser would read a JSON, form or text file into memory (and refuse it
 * past its own small limits). For a non-multipart upload this middleware notes the body's
 * framing headers and hides them, so the body parser sees no body and the upload streams the
 * request itself (app/files/upload.ts). Multipart uploads are left to the body parser, which
 * only prepares them (`processManually` in config/bodyparser.ts).
 *
 * A server middleware (app/middleware/edge_middleware.ts, after the resource server): server
 * middleware run before the router's, the body parser included.
 */
import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'

export const FILES_ROUTE = '/rest/files'

export interface RawBody {
  contentLength?: number
  chunked: boolean
}

const rawBodies = new WeakMap<HttpContext, RawBody>()

/** The framing of a raw upload as it arrived (undefined: not a raw upload). */
export const rawBodyOf = (ctx: HttpContext) => rawBodies.get(ctx)

export default class FilesBodyMiddleware {
  handle(ctx: HttpContext, next: NextFn) {
    const headers = ctx.request.request.headers
    if (
      ctx.request.url().replace(/\/+$/, '') === FILES_ROUTE &&
      ctx.request.method() === 'POST' &&
      !String(headers['content-type'] ?? '')
        .toLowerCase()
        .startsWith('multipart/')
    ) {
      const length = headers['content-length']
      rawBodies.set(ctx, {
        contentLength: length === undefined ? undefined : Number(length),
        chunked: headers['transfer-encoding'] !== undefined,
      })
      delete headers['content-length']
      delete headers['transfer-encoding']
    }
    return next()
  }
}
