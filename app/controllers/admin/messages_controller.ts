import type { HttpContext } from '@adonisjs/core/http'
import engine from '#engine/services/engine'
import { definitions } from '#definition/main'
import { LOCALE_CODE, messagePath, modelKeys } from '#i18n/definition'
import { defaultSources, defaultTexts } from '#i18n/main'
import { changeOptions, invalidPayload, notFound, sendResult, sendVersion } from './admin_http.js'

/** Code-unit order, as the Messages API sorts its maps. */
const byCode = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

/** The stored translations of one locale, read from the table (not this instance's cache). */
async function storedOf(locale: string): Promise<Record<string, string>> {
  const rows = await engine.db
    .connection()
    .from('mg_messages')
    .where('locale', locale)
    .select('key', 'value')
  rows.sort((a, b) => byCode(a.key, b.key))
  return Object.fromEntries(rows.map((r) => [r.key, r.value]))
}

/**
 * Translations per locale (app/i18n/README.md): which locales are available and how many texts
 * each stores; per locale every translatable key of the model with its stored text and the text
 * shown without it (and where that text comes from: `caption`, `language` or only the `name`);
 * PUT merges texts into the `messages` section (null removes one).
 */
export default class MessagesController {
  async index(ctx: HttpContext) {
    const rows = await engine.db
      .connection()
      .from('mg_messages')
      .select('locale')
      .count('* as n')
      .groupBy('locale')
    rows.sort((a, b) => byCode(a.locale, b.locale))
    await sendVersion(ctx)
    return {
      locales: engine.properties.get<string[]>('svc.core.available-locales'),
      stored: Object.fromEntries(rows.map((r) => [r.locale, Number(r.n)])),
    }
  }

  async show(ctx: HttpContext) {
    const locale: string = ctx.params.locale
    // Any well-formed locale may hold texts (prepared before it is made available).
    if (!LOCALE_CODE.test(locale)) return notFound(ctx, `Locale ${locale}`)
    const stored = await storedOf(locale)
    const defaults = defaultTexts(locale)
    const sources = defaultSources(locale)
    const keys = [...modelKeys(engine.model)].sort(byCode)
    await sendVersion(ctx)
    return {
      locale,
      available: engine.properties.get<string[]>('svc.core.available-locales').includes(locale),
      messages: keys.map((key) => ({
        key,
        stored: stored[key] ?? null,
        default: defaults.get(key) ?? null,
        defaultSource: sources.get(key) ?? 'name',
      })),
    }
  }

  async update(ctx: HttpContext) {
    const locale: string = ctx.params.locale
    const body = ctx.request.body()
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      return invalidPayload(ctx, [
        { path: '$', message: 'the body must be an object {"<key>": "<text>" | null}' },
      ])
    const result = await definitions(engine).importDocument(
      { formatVersion: 1, messages: { [locale]: body } },
      changeOptions(ctx)
    )
    const ok = ['applied', 'unchanged', 'dry-run'].includes(result.status)
    sendResult(ctx, result, {
      prefix: messagePath(locale),
      extra: ok ? { locale, stored: await storedOf(locale) } : {},
    })
  }
}
