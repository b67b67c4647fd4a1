/*
 * The detailed OpenAPI document of the REST API (GET /rest/docs/openapiDetailed.json), as the
 * signed-in administrator may read it. Under ['admin', …]: every admin change (a new entity, a
 * new attribute) refreshes it.
 */
import { useQuery } from '@tanstack/react-query'
import { api } from '../../../lib/api'
import type { OpenApiDoc } from '../lib/reference'

export const apiDocsKeys = { detailed: ['admin', 'apidocs', 'detailed'] as const }

export function useDetailedDocument() {
  return useQuery({
    queryKey: apiDocsKeys.detailed,
    queryFn: ({ signal }) => api.get<OpenApiDoc>('/rest/docs/openapiDetailed.json', signal),
  })
}
