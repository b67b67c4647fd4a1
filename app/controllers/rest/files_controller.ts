import type { HttpContext } from '@adonisjs/core/http'
import engine from '#engine/services/engine'
import { permissionsFor } from '#security/main'
import { MISSING_TOKEN, unauthorized } from '#oauth/resource_server'
import {
  FileError,
  badUpload,
  boundLeftover,
  downloadForbidden,
  fileStorage,
  invalidFileRef,
  missingFileRef,
  parseFileRef,
  parseSize,
  referencedByReadableRow,
  sendFile,
  unknownStorage,
  uploadForbidden,
  uploadMultipart,
  uploadRaw,
} from '#files/main'
import { withDataManager } from './data_access.js'

/** A single-valued query parameter (undefined when absent; `a[]=`/repeated ones are refused). */
function queryParam(ctx: HttpContext, name: string): string | undefined {
  const value = ctx.request.qs()[name]
  if (value === undefined) return undefined
  if (typeof value !== 'string') throw badUpload(`Query parameter '${name}' must be given once`)
  return value
}

function fail(ctx: HttpContext, error: unknown) {
  if (!(error instanceof FileError)) throw error
  boundLeftover(ctx.request.request)
  ctx.response.status(error.status).json(error.toJSON())
}

/**
 * `/rest/files` (spec 4.5, reference 7): thin adapter over app/files. Upload needs the
 * `rest.fileUpload.enabled` policy; download `rest.fileDownload.enabled`, or an entity row the
 * caller can read that references the file.
 */
export default class FilesController {
  /** POST /rest/files[?name=&storageName=]: multipart part `file`, or the raw body. */
  async upload(ctx: HttpContext) {
    if (!ctx.subject) return unauthorized(ctx, MISSING_TOKEN)
    try {
      const perms = await permissionsFor(ctx.subject)
      if (!perms.specific('rest.fileUpload.enabled')) throw uploadForbidden()
      const storageName =
        queryParam(ctx, 'storageName') ??
        String(engine.properties.get('svc.core.default-file-storage'))
      const storage = fileStorage(storageName)
      if (!storage) throw unknownStorage(storageName)
      const name = queryParam(ctx, 'name')
      const limit = parseSize(engine.properties.get('svc.rest.max-upload-size'))
      const result = ctx.request.is(['multipart/form-data'])
        ? await uploadMultipart(ctx, storage, name, limit)
        : await uploadRaw(ctx, storage, name === '' ? undefined : name, limit)
      const base = String(engine.properties.get('svc.server.base-url')).replace(/\/+$/, '')
      const origin = base || `${ctx.request.protocol()}://${ctx.request.host()}`
      const location = `${origin}/rest/files?fileRef=${encodeURIComponent(result.fileRef)}`
      return ctx.response.status(201).header('Location', location).json(result)
    } catch (error) {
      return fail(ctx, error)
    }
  }

  /** GET /rest/files?fileRef=...[&attachment=true] */
  async download(ctx: HttpContext) {
    if (!ctx.subject) return unauthorized(ctx, MISSING_TOKEN)
    try {
      const text = ctx.request.qs().fileRef
      if (text === undefined || text === '') throw missingFileRef()
      const ref = parseFileRef(text)
      if (!ref) throw invalidFileRef(String(text))
      const storage = fileStorage(ref.storage)
      if (!storage) throw unknownStorage(ref.storage)
      const perms = await permissionsFor(ctx.subject)
      if (!perms.specific('rest.fileDownload.enabled')) {
        const model = engine.model
        const allowed = await withDataManager(ctx, (data) =>
          referencedByReadableRow(data, model, text)
        )
        if (!allowed) throw downloadForbidden()
      }
      return await sendFile(ctx, storage, ref, text, {
        attachment: ctx.request.qs().attachment === 'true',
        inlineExtensions: engine.properties.get<string[]>(
          'svc.rest.inline-enabled-file-extensions'
        ),
      })
    } catch (error) {
      return fail(ctx, error)
    }
  }
}
