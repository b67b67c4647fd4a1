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

if (env.MODELGATE_S3_BUCKET) {
  storages.s3 = services.s3({
    bucket: env.MODELGATE_S3_BUCKET,
    region: env.MODELGATE_S3_REGION ?? 'us-east-1',
    endpoint: env.MODELGATE_S3_ENDPOINT || undefined,
    forcePathStyle: env.MODELGATE_S3_FORCE_PATH_STYLE === 'true',
    credentials: {
      accessKeyId: env.MODELGATE_S3_ACCESS_KEY_ID ?? '',
      secretAccessKey: env.MODELGATE_S3_SECRET_ACCESS_KEY ?? '',
    },
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
