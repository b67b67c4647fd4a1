/** Query keys of the translations area (admin data: every admin change invalidates ['admin']). */
export const translationKeys = {
  all: ['admin', 'translations'] as const,
  overview: () => [...translationKeys.all, 'overview'] as const,
  locale: (locale: string) => [...translationKeys.all, 'locale', locale] as const,
}
