/**
 * Public surface of the i18n module: captions of model elements in a locale, the request locale,
 * and the flat maps of the Messages API. Code outside app/i18n imports from here only (the
 * definition section lives in ./definition.ts for the importer). See app/i18n/README.md.
 */
import type { HttpContext } from '@adonisjs/core/http'
import engine from '#engine/services/engine'
import type { Subject } from '#security/subject'
import { javaLocale, resolveLocale as matchLocale } from '#settings/request_locale'
import {
  defaultSourcesOf,
  textsWithoutStored,
  translationsOf,
  type DefaultSource,
  type Translations,
} from './catalog.js'

export type { Translations, FlatMap, DefaultSource } from './catalog.js'
export { readableName, readableEntityName, readableEnumName, readableDefault } from './defaults.js'

/** The translations of `locale` (Java form, `en`, `de`, `en_US`) for the current model. */
export function translations(locale: string): Translations {
  return translationsOf(engine.model, engine.messages, javaLocale(locale) || 'en')
}

/**
 * Every model key of `locale` with the text the Messages API shows when `locale` has no stored
 * translation for it (caption, the language's stored text, or the readable default).
 */
export function defaultTexts(locale: string): ReadonlyMap<string, string> {
  return textsWithoutStored(engine.model, engine.messages, javaLocale(locale) || 'en')
}

/**
 * Where each default text of `locale` comes from (admin API): `name` (only the readable default
 * derived from the name: nothing translates it), `language` (the stored text of the language of
 * a regional locale, `de` for `de_AT`) or `caption` (a caption field of the model).
 */
export function defaultSources(locale: string): ReadonlyMap<string, DefaultSource> {
  return defaultSourcesOf(engine.model, engine.messages, javaLocale(locale) || 'en')
}

/**
 * The caption of a model element in `locale` (Java form: `en`, `de`, `en_US`). Keys:
 * `bookstore_Order` (entity), `bookstore_Order.number` (attribute),
 * `com.example.bookstore.OrderStatus` (enum), `com.example.bookstore.OrderStatus.NEW` (value).
 * Precedence: the `messages` section > the `caption` field > a readable default from the name
 * (`firstName` -> `First name`); the exact locale is tried before its language (`de_AT`, `de`).
 */
export function caption(locale: string, key: string): string {
  return translations(locale).text(key)
}

/**
 * The request's locale (Java form): the first `Accept-Language` entry matching
 * `svc.core.available-locales` (exact or same language), else the token user's locale when it
 * matches, else the first available locale.
 */
export function resolveLocale(ctx: HttpContext): string {
  return requestLocale(ctx.request.header('accept-language'), ctx.subject)
}

/** `resolveLocale` from the request's `Accept-Language` header and its subject. */
export function requestLocale(acceptLanguage: string | undefined, subject?: Subject): string {
  const available = engine.properties.get<string[]>('svc.core.available-locales')
  const userLocale = subject?.kind === 'user' ? subject.locale : null
  return matchLocale(acceptLanguage, available, [userLocale])
}
