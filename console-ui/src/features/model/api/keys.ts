/*
 * Query keys of the model designer. Admin data lives under ['admin', 'model', …] (every admin
 * change invalidates ['admin']); rows read through the REST API for previews and counts under
 * ['rest', 'model', …].
 */
import { modelKeys } from '../../../lib/model'

export const designerKeys = {
  ...modelKeys,
  /** One element with the definition version it was read at (editors send it as If-Match). */
  entityEditor: (name: string) => [...modelKeys.all, 'editor', 'entity', name] as const,
  enumEditor: (name: string) => [...modelKeys.all, 'editor', 'enum', name] as const,
  planEditor: (entity: string, name: string) =>
    [...modelKeys.all, 'editor', 'fetch-plan', entity, name] as const,
  locales: () => ['admin', 'model', 'locales'] as const,
  rest: {
    all: ['rest', 'model'] as const,
    count: (entity: string) => ['rest', 'model', 'count', entity] as const,
    rows: (entity: string, plan: string, limit: number) =>
      ['rest', 'model', 'rows', entity, plan, limit] as const,
  },
}
