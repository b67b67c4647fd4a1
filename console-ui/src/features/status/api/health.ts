import { useQuery } from '@tanstack/react-query'
import { api } from '../../../lib/api'
import { queryKeys } from '../../../lib/query_keys'

/** Body of GET /health (public, no authentication). */
export interface Health {
  status: string
  /** Product version, e.g. "0.1.0". */
  version: string
  /** Version of the application model; bumps on every model change. */
  modelVersion: number
  /** Hex checksum of the current model snapshot. */
  modelChecksum: string
  database: 'sqlite' | 'pg'
}

export function fetchHealth(signal?: AbortSignal): Promise<Health> {
  return api.get<Health>('/health', signal)
}

/** Server health, refreshed every 30 s so the panel notices a restart or a model change. */
export function useHealth() {
  return useQuery({
    queryKey: queryKeys.health,
    queryFn: ({ signal }) => fetchHealth(signal),
    refetchInterval: 30_000,
  })
}
