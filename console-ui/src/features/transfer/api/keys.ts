/** Query keys of import/export (under 'admin': every admin change refreshes them). */
export const transferKeys = {
  all: ['admin', 'transfer'] as const,
  definition: () => [...transferKeys.all, 'definition'] as const,
}
