import { modelKeys } from '../../../lib/model'

/**
 * Query keys of the ER diagram. The diagram reads the shared model query (`modelKeys`), so
 * every admin change (which invalidates ['admin']) redraws it; nothing else is fetched here.
 */
export const erKeys = {
  all: ['admin', 'er'] as const,
  entities: modelKeys.entities,
}
