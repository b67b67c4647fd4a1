/**
 * Uploads (reference 7.1): the bytes stream from the request into the storage under a
 * temporary key, through a counter that stops the upload as soon as it crosses the size limit
 * (also without a Content-Length, catalogue FL16); only a complete upload is renamed to its
 * final key. Memory stays bounded whatever the size: nothing is buffered beyond stream chunks.
 */
import { randomUUID } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import busboy, { type Busboy } from 'busboy'
import { Transform, type Readable } from 'node:stream'
import type { HttpContext } from '@adonisjs/core/http'
import { formatFileRef, nameProblem, newKey } from './file_ref.js'
import { TEMP_PREFIX, type FileStorage } from './storage.js'
import { rawBodyOf } from './body_middleware.js'
import { FileError, badUpload, storageFailed, storageFull, tooLarge } from './errors.js'
import { isUnavailable, logStorageError, uploadUnavailable } from './errors.js'

export interface UploadResult {
  fileRef: string
  name: string
  size: number
}

const FULL = new Set(['ENOSPC', 'EDQUOT', 'EFBIG'])

class LimitExceeded extends Error {}
/** The client's side failed (it went away, its body broke off): not the storage's fault. */
class ClientGone extends Error {}

/** Counts bytes; fails the stream once more than `limit` went through. */
class Limiter extends Transform {
  bytes = 0
  exceeded = false

  constructor(readonly limit: number) {
    super()
  }

  _transform(
    chunk: Buffer,
    _encoding: BufferEncoding,
    callback: (e?: Error | null, c?: Buffer) => void
  ) {
    this.bytes += chunk.length
    if (this.bytes > this.limit) {
      this.exceeded = true
      return callback(new LimitExceeded())
    }
    callback(null, chunk)
  }
}

/** What a failed write becomes for the client (nothing of it was kept). */
function failure(error: unknown, limiter: Limiter, storage: FileStorage): FileError {
  if (limiter.exceeded) return tooLarge(limiter.limit)
  if (error instanceof FileError) return error
  if (error instanceof ClientGone) return storageFailed() // nobody reads this answer
  const code = (error as { code?: string }).code ?? ''
  if (FULL.has(code)) return storageFull()
  logStorageError(`upload to ${storage.name}`, error)
  return isUnavailable(error) ? uploadUnavailable() : storageFailed()
}

/**
 * Stores `source` as a file called `name`; the fileRef exists only once every byte is stored.
 * `request` (whose body `source` is or is part of): a client that goes away mid-upload ends the
 * upload, and its temporary file is removed.
 */
export async function storeFile(
  storage: FileStorage,
  name: string,
  source: Readable,
  limit: number,
  request?: IncomingMessage
): Promise<UploadResult> {
  const limiter = new Limiter(limit)
  // Its failure reaches the caller through storage.write (which may not have attached yet).
  limiter.on('error', () => {})
  // pipe, not pipeline: a refused upload must not destroy the request, whose socket still
  // carries the 413 answer.
  source.on('error', (error) =>
    limiter.destroy(new ClientGone('the upload broke off', { cause: error }))
  )
  request?.once('close', () => {
    if (!request.complete) limiter.destroy(new ClientGone('the client went away mid-upload'))
  })
  source.pipe(limiter)
  const temp = `${TEMP_PREFIX}/${randomUUID()}.part`
  const key = newKey(name)
  try {
    // A failed write removes what it wrote itself (FileStorage); no second round trip to a
    // storage that is failing (S3 down: the client gets its 503 sooner).
    await storage.write(temp, limiter)
  } catch (error) {
    source.unpipe(limiter)
    throw failure(error, limiter, storage)
  }
  try {
    await storage.commit(temp, key)
  } catch (error) {
    await storage.remove(temp)
    throw failure(error, limiter, storage)
  }
  return {
    fileRef: formatFileRef({ storage: storage.name, path: key, name }),
    name,
    size: limiter.bytes,
  }
}

/**
 * After a refused upload the answer goes out at once; what the client still sends is read and
 * discarded (so that it sees the answer instead of a reset connection), but at most `bytes` or
 * `ms`: then the connection is cut (an endless chunked upload, catalogue FL16).
 */
export function boundLeftover(request: IncomingMessage, bytes = 4 * 1024 * 1024, ms = 5000) {
  if (request.complete) return
  let seen = 0
  const cut = () => request.socket.destroy()
  const timer = setTimeout(cut, ms).unref()
  request.once('end', () => clearTimeout(timer))
  request.on('data', (chunk: Buffer) => {
    seen += chunk.length
    if (seen > bytes) cut()
  })
  request.resume()
}

function checkName(name: string, storage: FileStorage) {
  const problem = nameProblem(name, storage.name)
  if (problem) throw badUpload(problem)
}

/** Raw mode: the request body is the file; `name` is required. */
export async function uploadRaw(
  ctx: HttpContext,
  storage: FileStorage,
  name: string | undefined,
  limit: number
) {
  if (name === undefined) throw badUpload("Query parameter 'name' is required for a raw upload")
  checkName(name, storage)
  const framing = rawBodyOf(ctx)
  if (framing?.contentLength !== undefined && framing.contentLength > limit) throw tooLarge(limit)
  return storeFile(storage, name, ctx.request.request, limit, ctx.request.request)
}

/**
 * Multipart mode: the part `file`; the `name` query parameter overrides its file name. Parsed
 * with busboy, whose boundary search skips over the data (the body parser's multiparty makes a
 * write per byte of some contents, e.g. a run of CR bytes: hundreds of MB of garbage per MB).
 */
export async function uploadMultipart(
  ctx: HttpContext,
  storage: FileStorage,
  name: string | undefined,
  limit: number
): Promise<UploadResult> {
  const request = ctx.request.request
  let parser: Busboy
  try {
    parser = busboy({ headers: request.headers, limits: PART_LIMITS, preservePath: true })
  } catch {
    throw badUpload('Invalid multipart request')
  }
  let storing: Promise<UploadResult> | undefined
  let refused: unknown
  await new Promise<void>((resolve) => {
    const stop = (error: unknown) => {
      refused ??= error
      request.unpipe(parser)
      resolve()
    }
    parser.on('file', (field, stream, info) => {
      if (field !== 'file' || storing) return void stream.resume()
      const fileName = name ?? info.filename ?? ''
      const problem = nameProblem(fileName, storage.name)
      storing = problem
        ? Promise.reject(badUpload(problem))
        : storeFile(storage, fileName, stream, limit, request)
      // Too large, or the storage failed (S3 down): stop reading (boundLeftover then reads at
      // most 4 MB more). A bad name: the rest of the body is read, the answer is a plain 400.
      storing.catch((error) => (error.status >= 413 ? stop(error) : stream.resume()))
    })
    parser.on('error', () => stop(badUpload('Invalid multipart request')))
    parser.on('close', () => resolve())
    request.pipe(parser)
  })
  let result: UploadResult | undefined
  if (storing) {
    try {
      result = await storing
    } catch (error) {
      refused ??= error
    }
  }
  if (refused) {
    if (result) await storage.remove(keyOf(result))
    throw refused instanceof FileError ? refused : storageFailed()
  }
  if (!result) throw badUpload("Required part 'file' is not present")
  return result
}

const PART_LIMITS = { fields: 100, fieldSize: 64 * 1024, parts: 200, headerPairs: 100 }

const keyOf = (result: UploadResult) => result.fileRef.replace(/^[^:]+:\/\/|\?.*$/g, '')
