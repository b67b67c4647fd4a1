/**
 * Guards the admin API (/admin/api): a bearer token of a user or client holding the specific
 * policy `admin.api` (built-in role `system-admin`; `*` and `system-full-access` do not grant
 * it). Anonymous callers are refused whatever the anonymous URL patterns say (401); others
 * without the policy get 403; a form body is a 415. Every answer carries the definition version
 * as its ETag.
 */
import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import { permissionsFor } from '#security/main'
import { bearerChallenge, MISSING_TOKEN } from '#oauth/resource_server'
import { adminError, sendVersion } from '#controllers/admin/admin_http'
import { formBodyType, unsupportedMediaType } from '#middleware/form_bodies'

export default class AdminMiddleware {
  async handle(ctx: HttpContext, next: NextFn) {
    ctx.response.header('Cache-Control', 'no-store')
    const subject = ctx.subject
    if (!subject || subject.kind === 'anonymous') {
      ctx.response.header('WWW-Authenticate', bearerChallenge(MISSING_TOKEN))
      return adminError(ctx, 401, 'Unauthorized', 'The admin API needs a bearer token')
    }
    const permissions = await permissionsFor(subject)
    if (!permissions.specific('admin.api'))
      return adminError(
        ctx,
        403,
        'Forbidden',
        'The admin API needs the specific policy admin.api (built-in role system-admin)'
      )
    // A form (`curl -d`) is not a document: refused before the fields are taken for one.
    const form = formBodyType(ctx)
    if (form) {
      const definition = ctx.request.url().startsWith('/admin/api/definition/')
      return unsupportedMediaType(
        ctx,
        form,
        definition ? 'application/json or application/yaml' : 'application/json'
      )
    }
    await next()
    if (!ctx.response.getHeader('ETag')) await sendVersion(ctx)
  }
}
