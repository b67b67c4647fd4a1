/**
 * The Files API subsystem (README.md beside this file): fileRef codec, storages on drive
 * disks, uploads, downloads, the inline/attachment rules and downloads through entities.
 */
export { parseFileRef, formatFileRef, type FileRef } from './file_ref.js'
export { FileError, invalidFileRef, missingFileRef, unknownStorage } from './errors.js'
export { uploadForbidden, downloadForbidden, badUpload } from './errors.js'
export { fileStorage, registerStorage, unregisterStorage, localStorageRoot } from './storages.js'
export type { FileStorage, StoredFile } from './storage.js'
export { uploadMultipart, uploadRaw, storeFile, boundLeftover } from './upload.js'
export type { UploadResult } from './upload.js'
export { sendFile } from './download.js'
export { referencedByReadableRow, fileAttributes } from './references.js'
export { parseSize } from './size.js'
