/**
 * Downloads (reference 7.3): the stored bytes, streamed, with `Range` support, a Content-Type
 * from the storage key's extension, RFC 6266/5987 `Content-Disposition`, and headers that keep
 * a browser from running what it receives (`nosniff`, `Content-Security-Policy: sandbox`:
 * catalogue FL11-FL14, FL17).
 */
import { Readable } from 'node:stream'
import type { HttpContext } from '@adonisjs/core/http'
import { keyExtension, type FileRef } from './file_ref.js'
import { contentDisposition, contentTypeOf, isInline } from './content_type.js'
import { parseRange } from './range.js'
import { isNotFound, type FileStorage } from './storage.js'
import { FileError, fileNotFound, readFailed, storageUnavailable } from './errors.js'
import { isUnavailable, logStorageError } from './errors.js'

export interface DownloadOptions {
  attachment: boolean
  inlineExtensions: string[]
}

export async function sendFile(
  ctx: HttpContext,
  storage: FileStorage,
  ref: FileRef,
  fileRefText: string,
  options: DownloadOptions
) {
  const file = await storage.find(ref.path).catch((error) => {
    logStorageError(`reading from ${storage.name}`, error)
    return Promise.reject(storageUnavailable())
  })
  if (!file) throw fileNotFound(fileRefText)
  const extension = keyExtension(ref.path)
  const inline = isInline(extension, options.attachment, options.inlineExtensions)
  const response = ctx.response
  response.header('Content-Type', contentTypeOf(extension))
  response.header('Content-Disposition', contentDisposition(inline, ref.name))
  response.header('X-Content-Type-Options', 'nosniff')
  response.header('Content-Security-Policy', 'sandbox')
  response.header('Cache-Control', 'no-cache')
  response.header('Pragma', 'no-cache')
  response.header('Expires', 'Thu, 01 Jan 1970 00:00:00 GMT')
  response.header('Accept-Ranges', 'bytes')

  const range = parseRange(ctx.request.header('range'), file.size)
  if (range.kind === 'unsatisfiable') {
    response.removeHeader('Content-Disposition')
    response.header('Content-Range', `bytes */${file.size}`)
    response.header('Content-Type', 'application/json; charset=utf-8')
    return response
      .status(416)
      .send({ error: 'Range not satisfiable', details: `The file has ${file.size} bytes` })
  }
  const part = range.kind === 'partial' ? { start: range.start, end: range.end } : undefined
  if (part) {
    response.status(206)
    response.header('Content-Range', `bytes ${part.start}-${part.end}/${file.size}`)
  }
  response.header('Content-Length', String(part ? part.end - part.start + 1 : file.size))
  // HEAD: the headers only; opening the file would fetch (and discard) every byte from S3.
  if (ctx.request.method() === 'HEAD') return response.stream(Readable.from([]))
  let stream
  try {
    stream = await file.open(part)
  } catch (error) {
    if (isNotFound(error)) throw fileNotFound(fileRefText)
    logStorageError(`reading from ${storage.name}`, error)
    throw isUnavailable(error) ? storageUnavailable() : readFailed()
  }
  // A storage failure after the headers went out cuts the connection (Adonis destroys the
  // response): the client sees fewer bytes than Content-Length, never a silently short file.
  response.stream(stream, () => ['File download failed', 500])
}

export { FileError }
