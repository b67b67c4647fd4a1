import type { HttpContext } from '@adonisjs/core/http'
import db from '@adonisjs/lucid/services/db'
import engine from '#engine/services/engine'
import { DataManager } from '#engine/data/data_manager'
import { DataError } from '#engine/data/errors'
import { MISSING_TOKEN, unauthorized } from '#oauth/resource_server'
import { permissionsFor, type Permissions, type Subject } from '#security/main'
import { resolveLocale, translations } from '#i18n/main'

/**
 * Runs `action` with a DataManager acting as the request's subject (401 without one) and turns
 * DataError into its status and upstream body. The one place REST controllers get data access.
 */
export async function withDataManager<T>(
  ctx: HttpContext,
  action: (data: DataManager) => Promise<T>
): Promise<T | void> {
  const subject = ctx.subject
  if (!subject) return unauthorized(ctx, MISSING_TOKEN)
  const permissions = ctx.permissions ?? (await permissionsFor(subject))
  const data = dataManagerFor(subject, permissions, () => resolveLocale(ctx))
  try {
    return await action(data)
  } catch (error) {
    if (!(error instanceof DataError)) throw error
    ctx.response.status(error.status).json(error.toJSON())
  }
}

/**
 * The DataManager of `subject`, configured as every REST request's (the admin API's row preview
 * builds one for the subject it inspects). `locale` is resolved only when an instance name
 * shows an enum value.
 */
export function dataManagerFor(
  subject: Subject,
  permissions: Permissions,
  locale: () => string
): DataManager {
  let texts: ReturnType<typeof translations> | undefined
  return new DataManager({
    caption: (key) => (texts ??= translations(locale())).text(key),
    db,
    model: engine.model,
    subject,
    permissions,
    maxFetchSize: Number(engine.properties.get('svc.rest.default-max-fetch-size')) || 10000,
    maxBulkSize: Number(engine.properties.get('svc.rest.max-bulk-size')) || 10000,
    securityTokens: engine.properties.get<boolean>('svc.core.entitySerializationTokenRequired'),
  })
}
