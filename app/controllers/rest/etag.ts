/**
 * Conditional GETs for documents derived from the model (metadata, messages): the ETag is a hash
 * of the model version, the locale and the exact body, so it changes with any of them (and with
 * a permission or an edited translation, which change the body). `If-None-Match` -> 304.
 */
import { createHash } from 'node:crypto'
import type { HttpContext } from '@adonisjs/core/http'

/** A serialized JSON document with its entity tag (cacheable as a unit). */
export interface TaggedDocument {
  body: string
  etag: string
}

export function entityTag(modelVersion: number, locale: string, body: string): string {
  const hash = createHash('sha256')
    .update(`${modelVersion}\n${locale}\n`)
    .update(body)
    .digest('base64url')
  return `"${hash.slice(0, 32)}"`
}

export function tagDocument(value: unknown, modelVersion: number, locale: string): TaggedDocument {
  const body = JSON.stringify(value)
  return { body, etag: entityTag(modelVersion, locale, body) }
}

/** RFC 9110 13.1.2: weak comparison against each listed tag, or `*`. */
export function noneMatch(header: string | undefined, tag: string): boolean {
  if (!header) return false
  const opaque = (t: string) => t.trim().replace(/^W\//, '')
  return header.split(',').some((t) => t.trim() === '*' || opaque(t) === opaque(tag))
}

/**
 * Sends the document as JSON with its ETag; answers 304 (no body) when the client already has
 * it. The response may differ per locale and per caller: private, to be revalidated.
 */
export function sendTagged(ctx: HttpContext, document: TaggedDocument) {
  const { request, response } = ctx
  response.header('ETag', document.etag)
  response.header('Cache-Control', 'private, no-cache')
  response.append('Vary', 'Accept-Language, Authorization')
  if (noneMatch(request.header('if-none-match'), document.etag)) return response.notModified(null)
  response.header('Content-Type', 'application/json;charset=UTF-8')
  return response.send(document.body)
}

/** `tagDocument` + `sendTagged` for a document that is not cached. */
export function sendWithEtag(
  ctx: HttpContext,
  value: unknown,
  key: { modelVersion: number; locale: string }
) {
  return sendTagged(ctx, tagDocument(value, key.modelVersion, key.locale))
}
