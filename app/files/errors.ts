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
