/**
 * The server-rendered login page of the authorization server (no JavaScript needed). Localized
 * from Accept-Language (en, de). An application replaces it by naming its own Handlebars view in
 * `svc.authserver.login-page-view-name` (a file under app/views/); the view receives the same
 * context and must post `username`, `password` and `_csrf` to /as-login.
 */
import { readFile } from 'node:fs/promises'
import Handlebars from 'handlebars'
import app from '@adonisjs/core/services/app'
import type { HttpContext } from '@adonisjs/core/http'
import engine from '#engine/services/engine'

const MESSAGES: Record<string, Record<string, string>> = {
  en: {
    title: 'Please sign in',
    username: 'Username',
    password: 'Password',
    submit: 'Sign in',
    cancel: 'Cancel',
    badCredentials: 'Bad credentials',
    tooMany: 'Too many attempts. Try again later.',
  },
  de: {
    title: 'Bitte melden Sie sich an',
    username: 'Benutzername',
    password: 'Passwort',
    submit: 'Anmelden',
    cancel: 'Abbrechen',
    badCredentials: 'Ungültige Anmeldedaten',
    tooMany: 'Zu viele Versuche. Bitte später erneut versuchen.',
  },
}

const templates = new Map<string, HandlebarsTemplateDelegate>()

/** Built-in view, or `app/views/<name>.hbs` named by svc.authserver.login-page-view-name. */
function viewFile(name: string): string {
  if (!name) return app.makePath('app/oauth/views/login.hbs')
  if (!/^[A-Za-z0-9_-]+(\/[A-Za-z0-9_-]+)*(\.hbs)?$/.test(name)) {
    throw new Error(`invalid svc.authserver.login-page-view-name '${name}'`)
  }
  return app.makePath('app/views', name.endsWith('.hbs') ? name : `${name}.hbs`)
}

async function template(name: string) {
  const file = viewFile(name)
  if (!templates.has(file)) templates.set(file, Handlebars.compile(await readFile(file, 'utf8')))
  return templates.get(file)!
}

export function loginLanguage(ctx: HttpContext): string {
  return ctx.request.language(Object.keys(MESSAGES)) ?? 'en'
}

export async function renderLoginPage(
  ctx: HttpContext,
  options: { error?: 'badCredentials' | 'tooMany'; username?: string }
) {
  const lang = loginLanguage(ctx)
  const t = MESSAGES[lang]
  const view = await template(engine.properties.get<string>('svc.authserver.login-page-view-name'))
  return view({
    lang,
    t,
    action: '/as-login',
    csrfToken: ctx.request.csrfToken,
    error: options.error ? t[options.error] : null,
    username: options.username ?? '',
  })
}
