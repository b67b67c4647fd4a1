/*
 * Translations over the admin API (README "Admin API": messages): the available locales and how
 * many texts each stores, every model key of a locale with its stored text and fallback, and a
 * batched merge per locale (PUT /messages/{locale} {key: text | null}).
 */
import { useQueries, useQuery } from '@tanstack/react-query'
import { adminChange, adminGetVersioned, type ChangeResult } from '../../../lib/admin'
import { translationKeys } from './keys'

export interface MessagesOverview {
  locales: string[]
  stored: Record<string, number>
  version: number | null
}

export interface MessageEntry {
  key: string
  stored: string | null
  default: string | null
  /** Where the fallback comes from: a caption, the language's text, or only the name. */
  defaultSource?: 'caption' | 'language' | 'name'
}

export interface LocaleMessages {
  locale: string
  available: boolean
  messages: MessageEntry[]
  version: number | null
}

export function useMessagesOverview() {
  return useQuery({
    queryKey: translationKeys.overview(),
    queryFn: async ({ signal }): Promise<MessagesOverview> => {
      const { data, version } = await adminGetVersioned<Omit<MessagesOverview, 'version'>>('messages', signal)
      return { ...data, version }
    },
  })
}

export interface LocaleColumns {
  /** Every locale's data once all are loaded (in the order asked), else null. */
  data: LocaleMessages[] | null
  error: unknown
}

function combine(results: { data?: LocaleMessages; error: unknown }[]): LocaleColumns {
  const data = results.map((r) => r.data)
  return {
    data: data.every((d) => d !== undefined) ? (data as LocaleMessages[]) : null,
    error: results.find((r) => r.error)?.error ?? null,
  }
}

/** One query per locale column, combined (stable while nothing changes). */
export function useLocaleMessages(locales: string[]): LocaleColumns {
  return useQueries({
    queries: locales.map((locale) => ({
      queryKey: translationKeys.locale(locale),
      queryFn: async ({ signal }: { signal: AbortSignal }): Promise<LocaleMessages> => {
        const { data, version } = await adminGetVersioned<Omit<LocaleMessages, 'version'>>(
          `messages/${encodeURIComponent(locale)}`,
          signal
        )
        return { ...data, version }
      },
    })),
    combine,
  })
}

export type MessagesChange = ChangeResult & { locale?: string; stored?: Record<string, string> }

/** Merges texts into one locale (null removes a stored text). */
export const saveMessages = (locale: string, texts: Record<string, string | null>, ifMatch?: number | null) =>
  adminChange<MessagesChange>('PUT', `messages/${encodeURIComponent(locale)}`, texts, {
    ifMatch: ifMatch ?? undefined,
  })

const LOCALES = 'svc.core.available-locales'

/** Makes `locales` the available locales (a stored setting: wins over file and environment). */
export const storeAvailableLocales = (locales: string[], ifMatch?: number | null) =>
  adminChange<ChangeResult>('PUT', `settings/${LOCALES}`, { value: locales }, { ifMatch: ifMatch ?? undefined })
