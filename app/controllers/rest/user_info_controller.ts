import type { HttpContext } from '@adonisjs/core/http'
import engine from '#engine/services/engine'
import User from '#models/user'
import { MISSING_TOKEN, unauthorized } from '#oauth/resource_server'
import { resolveLocale } from '#settings/request_locale'

/** The user's attributes (reference 8.7): never the password or token bookkeeping. */
function attributesOf(user: Pick<User, 'username'> & Partial<User>) {
  return {
    id: user.id ?? null,
    username: user.username,
    firstName: user.firstName ?? null,
    lastName: user.lastName ?? null,
    email: user.email ?? null,
    active: user.active ?? true,
    timeZoneId: user.timeZone ?? null,
  }
}

/**
 * `GET /rest/userInfo` (reference 8.7): who the request runs as. A user: the user's attributes;
 * a client-credentials token: `username` is the client id and `attributes` is empty; anonymous:
 * the attributes of the built-in `anonymous` user (the upstream anonymous user is an entity
 * instance too), or of an unsaved one (id null) when that row does not exist.
 */
export default class UserInfoController {
  async show(ctx: HttpContext) {
    const { request, response } = ctx
    const subject = ctx.subject
    // Only reachable without a subject when /rest/userInfo is neither authenticated nor
    // anonymous (a misconfiguration): refuse rather than guess.
    if (!subject) return unauthorized(ctx, MISSING_TOKEN)
    const available = engine.properties.get<string[]>('svc.core.available-locales')
    const acceptLanguage = request.header('accept-language')
    response.header('Cache-Control', 'no-store')

    if (subject.kind === 'client') {
      const locale = resolveLocale(acceptLanguage, available)
      return { username: subject.clientId, locale, attributes: {} }
    }
    const user =
      subject.kind === 'user'
        ? await User.find(subject.userId)
        : await User.findBy('username', subject.username)
    if (!user && subject.kind === 'user')
      return unauthorized(ctx, 'The user of the access token is no longer valid')
    return {
      username: subject.username,
      locale: resolveLocale(acceptLanguage, available, [user?.locale]),
      attributes: attributesOf(user ?? { username: subject.username }),
    }
  }
}
