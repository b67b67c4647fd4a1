/**
 * The locale of a request, as the upstream 2.8 resolves it: the first `Accept-Language` entry
 * (by quality) matching `svc.core.available-locales` exactly or by language; otherwise the first
 * available locale (callers may add fallbacks, such as the user's stored locale, before that
 * last resort). Returned in Java `Locale.toString()` form (`en`, `en_US`).
 */

/** `en-us` / `en_US` / `EN` -> `en_US` / `en`. */
export function javaLocale(tag: string): string {
  const [language, country, ...rest] = tag.trim().split(/[-_]/)
  if (!language) return ''
  const parts = [language.toLowerCase()]
  if (country) parts.push(country.length === 2 ? country.toUpperCase() : country)
  return [...parts, ...rest].join('_')
}

/** `Accept-Language` entries ordered by quality (stable for equal qualities), `*` dropped. */
export function acceptedLanguages(header: string | undefined): string[] {
  if (!header) return []
  return header
    .split(',')
    .map((part, index) => {
      const [tag, ...params] = part.trim().split(';')
      const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)).find(Boolean)
      return { tag: tag.trim(), q: q ? Number(q[1]) : 1, index }
    })
    .filter((e) => e.tag && e.tag !== '*' && e.q > 0 && !Number.isNaN(e.q))
    .sort((a, b) => b.q - a.q || a.index - b.index)
    .map((e) => e.tag)
}

/** `fallbacks` (e.g. the user's stored locale) are tried after the header's entries. */
export function resolveLocale(
  acceptLanguage: string | undefined,
  available: string[],
  fallbacks: (string | null | undefined)[] = []
): string {
  const locales = available.map(javaLocale).filter(Boolean)
  if (locales.length === 0) locales.push('en')
  const candidates = [...acceptedLanguages(acceptLanguage), ...fallbacks.filter((f) => !!f)]
  for (const tag of candidates as string[]) {
    const wanted = javaLocale(tag)
    const exact = locales.find((l) => l === wanted)
    if (exact) return exact
    const language = wanted.split('_')[0]
    const sameLanguage = locales.find((l) => l.split('_')[0] === language)
    if (sameLanguage) return sameLanguage
  }
  return locales[0]
}
