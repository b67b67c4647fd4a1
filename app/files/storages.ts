/**
 * The storages by name (the fileRef scheme): the drive disks of config/drive.ts, plus any
 * registered in code (an application's own storage; tests use it to simulate a full disk).
 * The first use of a storage removes temporary uploads a crash left behind (older than an hour).
 */
import drive from '@adonisjs/drive/services/main'
import logger from '@adonisjs/core/services/logger'
import { LOCAL_STORAGE_ROOT, S3_BUCKET, STORAGE_NAMES } from '#config/drive'
import { LocalStorage, type FileStorage } from './storage.js'
import { S3Storage } from './s3_storage.js'

const SWEEP_AGE_MS = 60 * 60 * 1000
const storages = new Map<string, FileStorage>()
const overrides = new Map<string, FileStorage>()

function open(name: string): FileStorage {
  const disk = drive.use(name as never)
  const storage =
    name === 'fs'
      ? new LocalStorage(name, disk, LOCAL_STORAGE_ROOT)
      : new S3Storage(name, disk, S3_BUCKET!.client, S3_BUCKET!.bucket)
  storage.sweep(SWEEP_AGE_MS).then(
    (n) => n && logger.info('files: removed %d abandoned temporary upload(s) in %s', n, name),
    (error) => logger.warn('files: could not sweep temporary uploads of %s: %s', name, error)
  )
  return storage
}

/** The storage called `name`, or undefined when no such storage is configured. */
export function fileStorage(name: string): FileStorage | undefined {
  if (overrides.has(name)) return overrides.get(name)
  if (!STORAGE_NAMES.includes(name)) return undefined
  if (!storages.has(name)) storages.set(name, open(name))
  return storages.get(name)
}

/** Serves `storage` under its name (replacing a configured one) until `unregisterStorage`. */
export function registerStorage(storage: FileStorage) {
  overrides.set(storage.name, storage)
}

export function unregisterStorage(name: string) {
  overrides.delete(name)
}

/** The local storage root (absolute path). */
export const localStorageRoot = () => LOCAL_STORAGE_ROOT
