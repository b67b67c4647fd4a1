/*
 * The model for the diagram: the shared entities query (`modelKeys.entities()`, the same cache
 * entry `useModelEntities()` uses), started already while the page's chunk is downloading on the
 * first visit (routes.tsx calls `prefetchEntities()`), so both travel at the same time.
 */
import { useQuery } from '@tanstack/react-query'
import { adminGet } from '../../../lib/admin'
import type { ModelEntity } from '../../../lib/model'
import { erKeys } from './keys'

let pending: { at: number; promise: Promise<ModelEntity[]> } | null = null

export function prefetchEntities() {
  const promise = adminGet<ModelEntity[]>('entities')
  promise.catch(() => undefined)
  pending = { at: Date.now(), promise }
}

/** The prefetched answer when it is recent (once), else null. */
function takePrefetched(): Promise<ModelEntity[]> | null {
  const taken = pending
  pending = null
  return taken && Date.now() - taken.at < 5000 ? taken.promise : null
}

export function useErEntities() {
  return useQuery({
    queryKey: erKeys.entities(),
    queryFn: ({ signal }) => takePrefetched() ?? adminGet<ModelEntity[]>('entities', signal),
  })
}
