import type { HttpContext } from '@adonisjs/core/http'
import { readFileSync } from 'node:fs'

const { version } = JSON.parse(
  readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')
)

/** `GET /rest/version` and `PUT /rest/user-session/locale` (reference 2.12). */
export default class UserSessionController {
  /**
   * The product version as plain text (what the old npm client's `getApiVersion` reads).
   * Deliberate improvement (design/architecture.md 5): upstream answers 500 inside applications.
   */
  version({ response }: HttpContext) {
    response.header('Content-Type', 'text/plain; charset=utf-8')
    response.header('Cache-Control', 'no-cache')
    return response.send(String(version))
  }

  /**
   * As upstream 2.x: a stub that always refuses. There is no server-side session: the locale of
   * a request is its Accept-Language header, else the token user's stored locale.
   */
  setLocale({ response }: HttpContext) {
    return response
      .status(422)
      .send({ error: 'Could not change user session locale', details: null })
  }
}
