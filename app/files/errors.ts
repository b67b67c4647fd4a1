import logger from '@adonisjs/core/services/logger'

/**
 * Errors of the Files API in the upstream body `{error, details}` (reference 7.1, 7.3). Storage
 * paths, driver messages and stacks never reach the client (catalogue FL10).
 */
export class FileError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    readonly details: string
  ) {
    super(`${error}: ${details}`)
  }

  toJSON() {
    return { error: this.error, details: this.details }
  }
}

const UPLOAD = 'File upload failed'
const DOWNLOAD = 'File download failed'

export const uploadForbidden = () => new FileError(403, UPLOAD, 'File upload is not permitted')
export const downloadForbidden = () =>
  new FileError(403, DOWNLOAD, 'File download is not permitted')
export const invalidFileRef = (text: string) =>
  new FileError(400, 'Invalid file reference', `Cannot convert '${text}' into valid file reference`)
export const missingFileRef = () =>
  new FileError(400, 'Invalid file reference', "Required parameter 'fileRef' is missing")
export const unknownStorage = (name: string) =>
  new FileError(400, 'Invalid file reference', `Cannot find FileStorage with name: '${name}'`)
export const fileNotFound = (text: string) =>
  new FileError(404, 'File not found', `File not found. File reference: ${text}`)
export const badUpload = (details: string) => new FileError(400, UPLOAD, details)
export const tooLarge = (limit: number) =>
  new FileError(413, UPLOAD, `The file is larger than the maximum upload size (${limit} bytes)`)
export const storageFull = () =>
  new FileError(507, UPLOAD, 'Not enough space in the file storage; nothing was stored')
export const storageFailed = () => new FileError(500, UPLOAD, 'File upload failed')
export const readFailed = () => new FileError(500, DOWNLOAD, 'File download failed')
export const storageUnavailable = () =>
  new FileError(503, DOWNLOAD, 'The file storage is not available')
export const uploadUnavailable = () =>
  new FileError(503, UPLOAD, 'The file storage is not available; nothing was stored')

/** Network failures of a remote storage (S3): the service is down or unreachable, not broken. */
const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'TimeoutError',
  'RequestTimeout',
  'ServiceUnavailable',
  'SlowDown',
])

/** Each error of the `cause` chain (drive wraps driver errors: E_CANNOT_WRITE_FILE etc.). */
export function* causes(error: unknown): Generator<Record<string, any>> {
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 8; depth++) {
    const current = e as Record<string, any>
    yield current
    e = current.cause
  }
}

/**
 * Whether `error` says that the storage cannot be reached (connection refused or reset,
 * timeouts, a 5xx from S3 after the client's retries): the client gets 503 and may retry later.
 */
export function isUnavailable(error: unknown): boolean {
  for (const e of causes(error)) {
    if (UNREACHABLE.has(e.code) || UNREACHABLE.has(e.name)) return true
    const status = e.$metadata?.httpStatusCode
    if (status >= 500 && status !== 501) return true
  }
  return false
}

/** For the operator: what failed, with the driver's code and message (never sent to clients). */
export function logStorageError(what: string, error: unknown) {
  const chain = [...causes(error)]
  const root = chain[chain.length - 1] ?? {}
  const code = root.code ?? root.Code ?? root.name ?? 'Error'
  logger.warn('files: %s failed: %s %s', what, code, String(root.message ?? error).slice(0, 300))
}
