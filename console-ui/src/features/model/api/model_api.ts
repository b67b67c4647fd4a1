/*
 * Reads of the model designer: elements with their definition version (for If-Match), the
 * fetch plans, the locales captions are edited in, and rows through the REST API (counts and
 * previews, read with the admin's own token).
 */
import { useQuery } from '@tanstack/react-query'
import { api } from '../../../lib/api'
import { adminGet, adminGetVersioned } from '../../../lib/admin'
import type { ModelEntity, ModelEnum } from '../../../lib/model'
import type { PlanDraft } from '../lib/fetch_plan'
import { designerKeys } from './keys'

const enc = encodeURIComponent

export const entityPath = (name: string) => `entities/${enc(name)}`
export const attributePath = (entity: string, attribute: string) =>
  `entities/${enc(entity)}/attributes/${enc(attribute)}`
export const enumPath = (name: string) => `enums/${enc(name)}`
export const planPath = (entity: string, name: string) => `fetch-plans/${enc(entity)}/${enc(name)}`

export function useEntityEditor(name: string | undefined) {
  return useQuery({
    queryKey: designerKeys.entityEditor(name ?? ''),
    queryFn: ({ signal }) => adminGetVersioned<ModelEntity>(entityPath(name!), signal),
    enabled: !!name,
  })
}

export function useEnumEditor(name: string | undefined) {
  return useQuery({
    queryKey: designerKeys.enumEditor(name ?? ''),
    queryFn: ({ signal }) => adminGetVersioned<ModelEnum>(enumPath(name!), signal),
    enabled: !!name,
  })
}

export function usePlanEditor(entity: string | undefined, name: string | undefined) {
  return useQuery({
    queryKey: designerKeys.planEditor(entity ?? '', name ?? ''),
    queryFn: ({ signal }) => adminGetVersioned<PlanDraft>(planPath(entity!, name!), signal),
    enabled: !!entity && !!name,
  })
}

export function useFetchPlans() {
  return useQuery({
    queryKey: designerKeys.fetchPlans(),
    queryFn: ({ signal }) => adminGet<PlanDraft[]>('fetch-plans', signal),
  })
}

/** The locales captions are edited in (`svc.core.available-locales`, from GET /messages). */
export function useLocales() {
  const query = useQuery({
    queryKey: designerKeys.locales(),
    queryFn: ({ signal }) => adminGet<{ locales: string[] }>('messages', signal),
    staleTime: 60_000,
  })
  return query.data?.locales?.length ? query.data.locales : ['en']
}

/** Rows of an entity (GET /rest/entities/{e}?limit=&fetchPlan=), for previews. */
export function useEntityRows(
  entity: string | undefined,
  fetchPlan: string,
  limit: number,
  enabled = true
) {
  return useQuery({
    queryKey: designerKeys.rest.rows(entity ?? '', fetchPlan, limit),
    queryFn: ({ signal }) =>
      api.get<Record<string, unknown>[]>(
        `/rest/entities/${enc(entity!)}?limit=${limit}&fetchPlan=${enc(fetchPlan)}`,
        signal
      ),
    enabled: !!entity && enabled && fetchPlan !== '',
    retry: false,
    staleTime: 5_000,
    // While the plan changes, keep the previous rows of the same entity on screen.
    placeholderData: (previous, query) => (query?.queryKey[3] === entity ? previous : undefined),
  })
}

/** The number of rows of an entity (GET /rest/entities/{e}/search/count, every row). */
export function useRowCount(entity: string, enabled: boolean) {
  return useQuery({
    queryKey: designerKeys.rest.count(entity),
    queryFn: ({ signal }) =>
      api.get<number>(
        `/rest/entities/${enc(entity)}/search/count?filter=${enc('{"conditions":[]}')}`,
        signal
      ),
    enabled,
    staleTime: 60_000,
    retry: false,
  })
}
