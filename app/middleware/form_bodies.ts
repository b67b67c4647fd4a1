/**
 * Form bodies (`curl -d`, an HTML form) sent to a JSON endpoint: /rest/entities (create, update,
 * delete, search) and the admin API answer 415 naming the media type they read, before anything
 * reads the fields. Upstream reads any Content-Type as JSON and so reports a form as malformed
 * JSON; the admin API used to take the parsed fields as a document. The Files API and OAuth
 * read forms and are not concerned.
 */
import type { HttpContext } from '@adonisjs/core/http'

export const FORM_TYPES = ['multipart/form-data', 'application/x-www-form-urlencoded']

/** The form media type of the request when it carries a non-empty form body, else null. */
export function formBodyType(ctx: HttpContext): string | null {
  const headers = ctx.request.request.headers
  const type = String(headers['content-type'] ?? '')
    .split(';')[0]
    .trim()
    .toLowerCase()
  if (!FORM_TYPES.includes(type)) return null
  const length = headers['content-length']
  return headers['transfer-encoding'] !== undefined || Number(length) > 0 ? type : null
}

/** 415 `{error, details}`: the body's media type is not the one the endpoint reads. */
export function unsupportedMediaType(ctx: HttpContext, type: string, expected: string) {
  return ctx.response.status(415).json({
    error: 'Unsupported media type',
    details: `Send the body as ${expected}, not ${type}`,
  })
}
