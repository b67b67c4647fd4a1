/**
 * Storages behind the Files API, each on a drive disk. A storage writes an upload under a
 * temporary key and then makes it visible under its final key in one step, so a partial file
 * is never reachable; a failed or refused upload leaves nothing behind.
 *
 * - LocalStorage: the `fs` disk. Writes through drive; the final step is a `rename(2)` inside
 *   the storage root (atomic), reads resolve the real path and refuse anything outside the root
 *   (a planted symlink, catalogue FL8) or that is not a regular file.
 * - S3Storage (s3_storage.ts): an S3-compatible bucket.
 */
import { createReadStream, createWriteStream } from 'node:fs'
import { pipeline } from 'node:stream/promises'
import * as fsp from 'node:fs/promises'
import { dirname, join, sep } from 'node:path'
import type { Readable } from 'node:stream'
import type { Disk } from '@adonisjs/drive'
import { causes } from './errors.js'

export interface ByteRange {
  start: number
  end: number
}

export interface StoredFile {
  size: number
  /** The bytes, or the inclusive `range` of them. */
  open(range?: ByteRange): Promise<Readable>
}

export interface FileStorage {
  readonly name: string
  /** Writes `source` under `key`; on failure removes whatever part of it was written. */
  write(key: string, source: Readable): Promise<void>
  /** Makes the temporary key visible under the final key, in one step. */
  commit(tempKey: string, key: string): Promise<void>
  remove(key: string): Promise<void>
  /** The file under `key`; null when there is none (or it is not a regular file in the root). */
  find(key: string): Promise<StoredFile | null>
  /** Removes temporary files older than `ageMs` (left by a crash mid-upload). */
  sweep(ageMs: number): Promise<number>
}

/** Temporary uploads live here; no fileRef can name this folder (see file_ref.ts). */
export const TEMP_PREFIX = '_uploads'

const NOT_FOUND = new Set(['ENOENT', 'ENOTDIR', 'EISDIR', 'ELOOP', 'NoSuchKey', 'NotFound'])
/** A missing file, also when wrapped by drive (E_CANNOT_READ_FILE etc. with a `cause`). */
export const isNotFound = (error: unknown) => {
  for (const e of causes(error)) {
    if (NOT_FOUND.has(e.code) || NOT_FOUND.has(e.name) || e.$metadata?.httpStatusCode === 404)
      return true
  }
  return false
}

export async function removeQuietly(disk: Disk, key: string) {
  await disk.delete(key).catch(() => {})
}

export class LocalStorage implements FileStorage {
  constructor(
    readonly name: string,
    readonly disk: Disk,
    readonly root: string
  ) {}

  /**
   * Not drive's putStream: that one can still create the file after the source failed (it
   * rejects on the source's error while its writeFile is under way), leaving a partial file.
   * pipeline settles only once both streams are closed, so the removal below is the last word.
   */
  async write(key: string, source: Readable) {
    const path = join(this.root, key)
    try {
      await fsp.mkdir(dirname(path), { recursive: true })
      await pipeline(source, createWriteStream(path, { flags: 'wx' }))
    } catch (error) {
      await fsp.unlink(path).catch(() => {})
      throw error
    }
  }

  async commit(tempKey: string, key: string) {
    const target = join(this.root, key)
    await fsp.mkdir(dirname(target), { recursive: true })
    await fsp.rename(join(this.root, tempKey), target)
  }

  async remove(key: string) {
    await removeQuietly(this.disk, key)
  }

  async find(key: string): Promise<StoredFile | null> {
    let real: string
    let size: number
    try {
      const root = await fsp.realpath(this.root)
      real = await fsp.realpath(join(this.root, key))
      if (!real.startsWith(root + sep)) return null
      const stats = await fsp.stat(real)
      if (!stats.isFile()) return null
      size = stats.size
    } catch (error) {
      if (isNotFound(error)) return null
      throw error
    }
    return {
      size,
      open: async (range) => {
        const stream = createReadStream(real, range ?? {})
        // Surface a failed open (file removed in between) before any header is sent.
        await new Promise<void>((resolve, reject) => {
          stream.once('open', () => resolve())
          stream.once('error', reject)
        })
        return stream
      },
    }
  }

  async sweep(ageMs: number) {
    const folder = join(this.root, TEMP_PREFIX)
    const names = await fsp.readdir(folder).catch(() => [] as string[])
    let removed = 0
    for (const name of names) {
      const path = join(folder, name)
      const stats = await fsp.stat(path).catch(() => null)
      if (stats?.isFile() && Date.now() - stats.mtimeMs > ageMs) {
        await fsp.unlink(path).catch(() => {})
        removed++
      }
    }
    return removed
  }
}
