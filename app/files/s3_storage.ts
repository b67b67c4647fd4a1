/**
 * The `s3` storage: an S3-compatible bucket (AWS, MinIO, ...), on drive's S3 disk plus the
 * disk's S3 client for what drive has no method for (config/drive.ts builds both).
 *
 * - Writes: S3 refuses a PutObject of unknown length, and an upload's length is unknown until
 *   its last byte (chunked, multipart). So the bytes are cut into parts of PART_SIZE: a file
 *   that fits in one part is one PutObject of a buffer; a larger one is a multipart upload,
 *   one part in memory at a time (backpressure holds the client meanwhile). Either becomes
 *   visible only when complete; a failed multipart upload is aborted.
 * - Commit: a server-side copy to the final key (atomic), then the temporary key is deleted;
 *   should that delete fail the upload still counts (the copy is whole) and the sweep removes
 *   the temporary object later.
 * - Reads: HEAD for the size, then a GET with the `Range` header, so a range costs only its
 *   own bytes.
 */
import type { Readable } from 'node:stream'
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  GetObjectCommand,
  PutObjectCommand,
  UploadPartCommand,
  type CompletedPart,
  type S3Client,
} from '@aws-sdk/client-s3'
import type { Disk } from '@adonisjs/drive'
import {
  TEMP_PREFIX,
  isNotFound,
  removeQuietly,
  type ByteRange,
  type FileStorage,
  type StoredFile,
} from './storage.js'

/** S3 parts are 5 MiB at least (but the last); 8 MiB is the AWS CLI's default. */
export const PART_SIZE = 8 * 1024 * 1024

/** Reads `source` into buffers of `size` bytes (the last one shorter; none for an empty source). */
async function* parts(source: Readable, size: number): AsyncGenerator<Buffer> {
  let chunks: Buffer[] = []
  let length = 0
  for await (const chunk of source as AsyncIterable<Buffer>) {
    let rest = chunk
    while (length + rest.length >= size) {
      const take = size - length
      chunks.push(rest.subarray(0, take))
      yield Buffer.concat(chunks, size)
      rest = rest.subarray(take)
      chunks = []
      length = 0
    }
    if (rest.length) {
      chunks.push(rest)
      length += rest.length
    }
  }
  if (length) yield Buffer.concat(chunks, length)
}

export class S3Storage implements FileStorage {
  constructor(
    readonly name: string,
    readonly disk: Disk,
    readonly client: S3Client,
    readonly bucket: string,
    readonly partSize = PART_SIZE
  ) {}

  async write(key: string, source: Readable) {
    const reader = parts(source, this.partSize)
    try {
      const first = await reader.next()
      const body = first.done ? Buffer.alloc(0) : first.value
      if (body.length < this.partSize) {
        // The whole file in one part: a plain PutObject, visible once S3 has every byte.
        await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: body }))
      } else {
        await this.multipart(key, body, reader)
      }
    } finally {
      // Stops reading the source when S3 failed half-way (the caller discards the rest).
      await reader.return(undefined)
    }
  }

  private async multipart(key: string, first: Buffer, rest: AsyncIterable<Buffer>) {
    const Bucket = this.bucket
    const { UploadId } = await this.client.send(
      new CreateMultipartUploadCommand({ Bucket, Key: key })
    )
    const done: CompletedPart[] = []
    const upload = async (Body: Buffer) => {
      const PartNumber = done.length + 1
      const part = new UploadPartCommand({ Bucket, Key: key, UploadId, PartNumber, Body })
      done.push({ ETag: (await this.client.send(part)).ETag, PartNumber })
    }
    try {
      await upload(first)
      for await (const part of rest) await upload(part)
      await this.client.send(
        new CompleteMultipartUploadCommand({
          Bucket,
          Key: key,
          UploadId,
          MultipartUpload: { Parts: done },
        })
      )
    } catch (error) {
      // Best effort, not awaited (S3 may be down: the client gets its answer without another
      // round of retries); a bucket lifecycle rule (AbortIncompleteMultipartUpload) covers it.
      this.client
        .send(new AbortMultipartUploadCommand({ Bucket, Key: key, UploadId }))
        .catch(() => {})
      throw error
    }
  }

  async commit(tempKey: string, key: string) {
    await this.disk.copy(tempKey, key)
    await removeQuietly(this.disk, tempKey)
  }

  async remove(key: string) {
    await removeQuietly(this.disk, key)
  }

  async find(key: string): Promise<StoredFile | null> {
    let size: number
    try {
      size = (await this.disk.getMetaData(key)).contentLength
    } catch (error) {
      if (isNotFound(error)) return null
      throw error
    }
    return { size, open: (range) => this.open(key, range) }
  }

  private async open(key: string, range?: ByteRange): Promise<Readable> {
    const { Body } = await this.client.send(
      new GetObjectCommand({
        Bucket: this.bucket,
        Key: key,
        Range: range ? `bytes=${range.start}-${range.end}` : undefined,
      })
    )
    return Body as Readable
  }

  async sweep(ageMs: number) {
    const { objects } = await this.disk.listAll(TEMP_PREFIX, { recursive: true })
    let removed = 0
    for (const object of objects) {
      if (!('getMetaData' in object)) continue
      const meta = await object.getMetaData().catch(() => null)
      if (meta && Date.now() - meta.lastModified.getTime() > ageMs) {
        await removeQuietly(this.disk, object.key)
        removed++
      }
    }
    return removed
  }
}
