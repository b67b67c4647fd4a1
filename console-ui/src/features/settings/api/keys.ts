/** Query keys of the settings area (admin data: every admin change invalidates ['admin']). */
export const settingsKeys = {
  all: ['admin', 'settings'] as const,
  list: () => [...settingsKeys.all, 'list'] as const,
  urlTest: (request: unknown) => [...settingsKeys.all, 'url-test', request] as const,
}
