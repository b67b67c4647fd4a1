/*
 * Every TanStack Query key in one place, so invalidation after a mutation can target a whole
 * area (e.g. `queryKeys.admin.all`) without guessing string literals.
 */
export const queryKeys = {
  health: ['health'] as const,
} as const
