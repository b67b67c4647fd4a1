/**
 * The translations of one locale for one model version and one load of the stored messages:
 * every entity, attribute, enum and enum value key with its text. Built once and memoized on the
 * model snapshot (a new model version drops it), keyed by the stored messages' generation and the
 * locale. Lookup order for locale `de_AT`: stored `de_AT` > caption `de_AT` > stored `de` >
 * caption `de` > the readable default derived from the name.
 */
import type { Model } from '../engine/metadata/model.js'
import type { Caption } from '../engine/metadata/types.js'
import { javaLocale } from '../settings/request_locale.js'
import { compare, type MessageStore } from './store.js'
import { readableDefault, readableEntityName, readableEnumName, readableName } from './defaults.js'

export type FlatMap = Record<string, string>

export interface Translations {
  locale: string
  /** Every model key of this locale -> its text. */
  all: ReadonlyMap<string, string>
  /** Entity name -> its flat map (the entity key and one key per attribute), sorted. */
  entities: ReadonlyMap<string, FlatMap>
  /** Enum name -> its flat map (the enum key and one key per value), sorted. */
  enums: ReadonlyMap<string, FlatMap>
  /** Every entity's map merged (`/messages/entities`), sorted. */
  allEntities: FlatMap
  /** Every enum's map merged (`/messages/enums`), sorted. */
  allEnums: FlatMap
  /** A text for any key: model keys as above, other keys from the stored messages or a default. */
  text(key: string): string
}

/** `de_AT` -> [`de_AT`, `de`]; `de` -> [`de`]. */
export function localeLevels(locale: string): string[] {
  const language = locale.split('_')[0]
  return language && language !== locale ? [locale, language] : [locale]
}

/** The caption field's text for exactly `locale` (its keys may be written `en-US` or `en_US`). */
function captionIn(caption: Caption | undefined, locale: string): string | undefined {
  if (!caption || typeof caption !== 'object') return undefined
  if (typeof caption[locale] === 'string') return caption[locale]
  for (const [key, value] of Object.entries(caption))
    if (javaLocale(key) === locale && typeof value === 'string') return value
  return undefined
}

const sorted = (entries: [string, string][]): FlatMap =>
  Object.fromEntries(entries.sort(([a], [b]) => compare(a, b)))

function merged(maps: Iterable<FlatMap>): FlatMap {
  const entries: [string, string][] = []
  for (const map of maps) entries.push(...Object.entries(map))
  return sorted(entries)
}

function build(model: Model, store: MessageStore, locale: string): Translations {
  const levels = localeLevels(locale)
  const stored = levels.map((l) => store.get(l))
  const lookup = (key: string, caption?: Caption): string | undefined => {
    for (const [i, level] of levels.entries()) {
      const text = stored[i]?.get(key) ?? captionIn(caption, level)
      if (text !== undefined) return text
    }
    return undefined
  }
  const all = new Map<string, string>()
  const add = (entries: [string, string][], key: string, text: string) => {
    entries.push([key, text])
    all.set(key, text)
  }

  const entities = new Map<string, FlatMap>()
  for (const entity of model.entities.values()) {
    const entries: [string, string][] = []
    const name = entity.name
    add(entries, name, lookup(name, entity.definition.caption) ?? readableEntityName(name))
    for (const a of entity.attributeList) {
      const key = `${name}.${a.name}`
      add(entries, key, lookup(key, a.definition?.caption) ?? readableName(a.name))
    }
    entities.set(name, sorted(entries))
  }

  const enums = new Map<string, FlatMap>()
  for (const e of model.enums.values()) {
    const entries: [string, string][] = []
    add(entries, e.name, lookup(e.name, e.caption) ?? readableEnumName(e.name))
    for (const v of e.values) {
      const key = `${e.name}.${v.name}`
      add(entries, key, lookup(key, v.caption) ?? readableName(v.name))
    }
    enums.set(e.name, sorted(entries))
  }

  return {
    locale,
    all,
    entities,
    enums,
    allEntities: merged(entities.values()),
    allEnums: merged(enums.values()),
    text: (key) => all.get(key) ?? lookup(key) ?? readableDefault(key),
  }
}

export type DefaultSource = 'language' | 'caption' | 'name'

/**
 * Where each text of `textsWithoutStored(model, store, locale)` comes from, by the same lookup
 * as build: a regional locale's language text (`language`), a caption field (`caption`), or
 * only the readable default derived from the name (`name`).
 */
export function defaultSourcesOf(
  model: Model,
  store: MessageStore,
  locale: string
): Map<string, DefaultSource> {
  const levels = localeLevels(locale)
  const sourceOf = (key: string, caption?: Caption): DefaultSource => {
    for (const [i, level] of levels.entries()) {
      // The locale's own stored texts are what the admin API shows beside the default.
      if (i > 0 && store.get(level)?.has(key)) return 'language'
      if (captionIn(caption, level) !== undefined) return 'caption'
    }
    return 'name'
  }
  const out = new Map<string, DefaultSource>()
  for (const entity of model.entities.values()) {
    out.set(entity.name, sourceOf(entity.name, entity.definition.caption))
    for (const a of entity.attributeList) {
      const key = `${entity.name}.${a.name}`
      out.set(key, sourceOf(key, a.definition?.caption))
    }
  }
  for (const e of model.enums.values()) {
    out.set(e.name, sourceOf(e.name, e.caption))
    for (const v of e.values)
      out.set(`${e.name}.${v.name}`, sourceOf(`${e.name}.${v.name}`, v.caption))
  }
  return out
}

interface Cache {
  generation: number
  byLocale: Map<string, Translations>
}

/** Locales are few (svc.core.available-locales); a bound keeps odd callers from growing it. */
const MAX_LOCALES = 64

/** The translations of `locale` for this model snapshot and the stored messages as loaded now. */
export function translationsOf(model: Model, store: MessageStore, locale: string): Translations {
  const cache = model.derive<Cache>('i18n.translations', () => ({
    generation: -1,
    byLocale: new Map(),
  }))
  if (cache.generation !== store.generation) {
    cache.byLocale.clear()
    cache.generation = store.generation
  }
  let translations = cache.byLocale.get(locale)
  if (!translations) {
    if (cache.byLocale.size >= MAX_LOCALES) cache.byLocale.clear()
    translations = build(model, store, locale)
    cache.byLocale.set(locale, translations)
  }
  return translations
}

/**
 * What `locale` would show for each model key if it had no stored translations of its own (the
 * admin API shows it next to a stored text). Built on demand and not cached: admin reads only.
 */
export function textsWithoutStored(
  model: Model,
  store: MessageStore,
  locale: string
): ReadonlyMap<string, string> {
  const others = { get: (l: string) => (l === locale ? undefined : store.get(l)) }
  return build(model, others as MessageStore, locale).all
}
