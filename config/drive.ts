/**
 * File storages of the Files API (app/files): one drive disk per storage name, the name being
 * the scheme of a fileRef (`fs://2024/05/01/<uuid>.png?name=cat.png`).
 *
 * - `fs` (always): the local disk, under MODELGATE_STORAGE_DIR (default `storage/`; test runs
 *   get their own folder under tmp/, per database and TEST_ID).
 * - `s3` (when MODELGATE_S3_BUCKET is set): an S3-compatible bucket (AWS, MinIO, ...), through
 *   drive's S3 driver (`@aws-sdk/client-s3`, `@aws-sdk/s3-request-presigner`).
 *
 * Files are never served by drive itself (`serveFiles: false`): every download goes through
 * `GET /rest/files`, which checks the caller's permissions.
 */
import { S3Client } from '@aws-sdk/client-s3'
import app from '@adonisjs/core/services/app'
import { defineConfig, services } from '@adonisjs/drive'
import type { DriverContract, InferDriveDisks, ServiceConfigProvider } from '@adonisjs/drive/types'

const env = process.env

function localRoot(): string {
  if (env.MODELGATE_STORAGE_DIR) return app.makePath(env.MODELGATE_STORAGE_DIR)
  if (app.inTest) {
    const run = [env.DB_CONNECTION ?? 'sqlite', env.TEST_ID].filter(Boolean).join('_')
    return app.makePath('tmp', `storage_${run.replace(/[^a-z0-9_]/gi, '')}`)
  }
  return app.makePath('storage')
}

/** Where the `fs` storage keeps its files (absolute). */
export const LOCAL_STORAGE_ROOT = localRoot()

const storages: Record<string, ServiceConfigProvider<() => DriverContract>> = {
  fs: services.fs({ location: LOCAL_STORAGE_ROOT, serveFiles: false, visibility: 'private' }),
}

const number = (value: string | undefined, fallback: number) =>
  value && Number.isFinite(Number(value)) && Number(value) > 0 ? Number(value) : fallback

/**
 * The S3 client of the `s3` storage, built here (not by drive) so that app/files can also send
 * the requests drive has no method for: multipart uploads of a stream of unknown length (S3
 * refuses a PutObject without Content-Length) and ranged GETs.
 *
 * - Checksums `WHEN_REQUIRED`: since 2025 the SDK otherwise adds CRC checksums to every upload,
 *   as an `aws-chunked` body with a trailer for streams. AWS and current MinIO accept both; many
 *   S3-compatible services and emulators (s3rver, older MinIO/Ceph) store the chunk framing as
 *   the file's bytes or refuse the request. Parts are sent as buffers of known length, and S3
 *   checks their MD5/SHA-256 signature payload anyway.
 * - Timeouts: connecting, and the longest silence on a connection (waiting for an answer or
 *   between bytes); each failed attempt is retried up to MODELGATE_S3_MAX_ATTEMPTS in all. So an
 *   unreachable service answers clients with 503 within seconds instead of hanging.
 * - At most MODELGATE_S3_MAX_SOCKETS connections (keep-alive; the SDK's default is 50): a
 *   download holds one while it streams to its client, and a request that finds none free
 *   waits at most the connect timeout (the SDK counts that wait), then the client gets 503.
 * - Credentials: the two variables, else the SDK's default chain (AWS_* variables, instance
 *   or task role).
 */
function s3Client(): S3Client {
  return new S3Client({
    region: env.MODELGATE_S3_REGION || 'us-east-1',
    endpoint: env.MODELGATE_S3_ENDPOINT || undefined,
    forcePathStyle: env.MODELGATE_S3_FORCE_PATH_STYLE === 'true',
    credentials: env.MODELGATE_S3_ACCESS_KEY_ID
      ? {
          accessKeyId: env.MODELGATE_S3_ACCESS_KEY_ID,
          secretAccessKey: env.MODELGATE_S3_SECRET_ACCESS_KEY ?? '',
        }
      : undefined,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: number(env.MODELGATE_S3_MAX_ATTEMPTS, 3),
    requestHandler: {
      connectionTimeout: number(env.MODELGATE_S3_CONNECT_TIMEOUT_MS, 2000),
      // Idle time, not a total: a large part on a slow link is fine as long as bytes flow.
      socketTimeout: number(env.MODELGATE_S3_TIMEOUT_MS, 5000),
      httpAgent: { keepAlive: true, maxSockets: number(env.MODELGATE_S3_MAX_SOCKETS, 200) },
      httpsAgent: { keepAlive: true, maxSockets: number(env.MODELGATE_S3_MAX_SOCKETS, 200) },
    },
  })
}

/** The `s3` storage's client and bucket (app/files/s3_storage.ts); undefined without one. */
export const S3_BUCKET = env.MODELGATE_S3_BUCKET
  ? { client: s3Client(), bucket: env.MODELGATE_S3_BUCKET }
  : undefined

if (S3_BUCKET) {
  storages.s3 = services.s3({
    client: S3_BUCKET.client,
    bucket: S3_BUCKET.bucket,
    visibility: 'private',
    supportsACL: false,
  })
}

/** The storage names, i.e. the fileRef schemes this server accepts. */
export const STORAGE_NAMES = Object.keys(storages)

const driveConfig = defineConfig({ default: 'fs', services: storages })

export default driveConfig

declare module '@adonisjs/drive/types' {
  export interface DriveDisks extends InferDriveDisks<typeof driveConfig> {}
}
