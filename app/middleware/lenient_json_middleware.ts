import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import type { IncomingMessage } from 'node:http'
import { parseLenientJson } from '#engine/query/lenient_json'
import { FORM_TYPES, formBodyType, unsupportedMediaType } from '#middleware/form_bodies'

/** Same ceiling as the bodyparser's JSON default. */
const LIMIT = 1024 * 1024

/** Deeper JSON is refused before the framework deep-clones it (catalogue FQ7). */
const MAX_DEPTH = 64

/** Nesting depth of a parsed JSON value, without recursion. */
function depthOf(value: unknown): number {
  let max = 0
  const stack: [unknown, number][] = [[value, 1]]
  while (stack.length) {
    const [v, depth] = stack.pop()!
    if (v === null || typeof v !== 'object') continue
    max = Math.max(max, depth)
    if (max > MAX_DEPTH) return max
    for (const child of Object.values(v)) stack.push([child, depth + 1])
  }
  return max
}

/**
 * What the lenient reader found: `body` is undefined when the text is not JSON at all, and
 * `error` then says why (the parser's message).
 */
export interface LenientBody {
  raw: string
  body: unknown
  error?: string
}

const lenientBodies = new WeakMap<HttpContext, LenientBody>()

/** The request body as this middleware read it (undefined: not read, e.g. a form). */
export function lenientBody(ctx: HttpContext): LenientBody | undefined {
  return lenientBodies.get(ctx)
}

function parse(raw: string): LenientBody {
  if (raw.trim() === '') return { raw, body: undefined }
  try {
    return { raw, body: parseLenientJson(raw) }
  } catch (error) {
    const message = String((error as Error).message)
      .replace(/^JSON5: /, '')
      .replace(/ at (\d+):(\d+)$/, ' at line $1, column $2')
    return { raw, body: undefined, error: message }
  }
}

/** The `details` of a body that is not JSON: empty, or what the parser stumbled on. */
export function malformedDetails(read: LenientBody | undefined): string {
  if (!read || read.raw.trim() === '') return 'The request body is empty: send JSON'
  return `The request body is not valid JSON: ${read.error ?? 'unreadable'}`
}

/**
 * The request body as UTF-8 text, or null as soon as it passes LIMIT bytes (the rest is left
 * unread). Events rather than the stream's async iterator, which costs more than a small body.
 * The error listener stays: a late error (client gone) settles nothing and crashes nothing.
 */
function readText(stream: IncomingMessage): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    const done = (value: string | null) => {
      stream.off('data', onData)
      stream.off('end', onEnd)
      resolve(value)
    }
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size > LIMIT) {
        stream.pause()
        return done(null)
      }
      chunks.push(chunk)
    }
    const onEnd = () => done(Buffer.concat(chunks, size).toString('utf8'))
    stream.on('data', onData)
    stream.once('end', onEnd)
    stream.once('error', reject)
  })
}

/**
 * Request JSON under /rest/entities, /rest/queries and /rest/reports is read as upstream reads it (reference 1): leniently
 * (unquoted keys, single quotes) and whatever the Content-Type says, except forms: a form body
 * is a 415 (form_bodies.ts). Runs before the bodyparser and, having consumed the body, tells the
 * bodyparser there is none to read.
 */
export default class LenientJsonMiddleware {
  async handle(ctx: HttpContext, next: NextFn) {
    const request = ctx.request
    const type = String(request.header('content-type') ?? '').toLowerCase()
    const applies =
      /^\/rest\/(entities|queries|reports)\//.test(request.url()) &&
      ['POST', 'PUT', 'DELETE'].includes(request.method()) &&
      request.hasBody()
    if (!applies) return next()
    if (FORM_TYPES.some((t) => type.startsWith(t))) {
      const form = formBodyType(ctx)
      return form ? unsupportedMediaType(ctx, form, 'application/json') : next()
    }
    const raw = await readText(request.request)
    if (raw === null) {
      return ctx.response.status(413).send({ error: 'Payload too large', details: '' })
    }
    const read = parse(raw)
    const body = read.body
    if (depthOf(body) > MAX_DEPTH) {
      return ctx.response.status(400).send({
        error: 'Malformed request JSON data structure',
        details: `JSON nested deeper than ${MAX_DEPTH} levels`,
      })
    }
    lenientBodies.set(ctx, read)
    request.updateRawBody(raw)
    if (body !== null && typeof body === 'object') request.setInitialBody(body as any)
    delete request.request.headers['content-length']
    delete request.request.headers['transfer-encoding']
    return next()
  }
}
