/** Query keys of the data browser: everything read through /rest lives under ['rest', …]. */
export const dataKeys = {
  all: ['rest'] as const,
  metadata: () => ['rest', 'metadata', 'entities'] as const,
  entity: (entity: string) => ['rest', 'entities', entity] as const,
  page: (entity: string, params: unknown) => ['rest', 'entities', entity, 'page', params] as const,
  count: (entity: string) => ['rest', 'entities', entity, 'count'] as const,
  row: (entity: string, id: string) => ['rest', 'entities', entity, 'row', id] as const,
  options: (entity: string, text: string) => ['rest', 'entities', entity, 'options', text] as const,
}
