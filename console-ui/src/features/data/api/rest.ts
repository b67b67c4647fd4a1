/*
 * The data browser's calls to the public REST API (README "Entities API", "Files API"), made
 * with the signed-in admin's token: the admin's own permissions apply as to any client.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { api, ApiError } from '../../../lib/api'
import { getAccessToken } from '../../../lib/auth/session'
import type { Filter } from '../../../components/filter/filter'
import { dataKeys } from './keys'
import { humanize, type CaptionLookup, type EntityRow, type FetchPlanProperty } from './schema'
import { useMemo } from 'react'

const enc = encodeURIComponent
const base = (entity: string) => `/rest/entities/${enc(entity)}`

export interface PageParams {
  limit: number
  offset: number
  /** `-date,number` */
  sort?: string
  filter?: Filter
  fetchPlan: { properties: FetchPlanProperty[] }
}

export interface Page {
  rows: EntityRow[]
  total: number
  /** The offset these rows start at (the range shown is the one loaded, not the one asked). */
  offset: number
}

/** One page and the total: GET with paging, or POST …/search when there is a filter. */
export async function fetchPage(
  entity: string,
  p: PageParams,
  signal?: AbortSignal
): Promise<Page> {
  const fetchPlan = JSON.stringify(p.fetchPlan)
  let response
  if (p.filter && p.filter.conditions.length) {
    response = await api.send<EntityRow[]>(`${base(entity)}/search`, {
      method: 'POST',
      body: {
        filter: p.filter,
        fetchPlan: p.fetchPlan,
        limit: p.limit,
        offset: p.offset,
        sort: p.sort,
        returnCount: true,
      },
      signal,
    })
  } else {
    const q = new URLSearchParams({
      limit: String(p.limit),
      offset: String(p.offset),
      returnCount: 'true',
      fetchPlan,
    })
    if (p.sort) q.set('sort', p.sort)
    response = await api.send<EntityRow[]>(`${base(entity)}?${q}`, { signal })
  }
  return {
    rows: response.data,
    total: Number(response.headers.get('x-total-count') ?? response.data.length),
    offset: p.offset,
  }
}

export function usePage(entity: string, params: PageParams) {
  return useQuery({
    queryKey: dataKeys.page(entity, params),
    queryFn: ({ signal }) => fetchPage(entity, params, signal),
    placeholderData: keepPreviousData,
  })
}

/** The number of rows the admin can read (X-Total-Count of a one-row page). */
export function useRowCount(entity: string, enabled = true) {
  return useQuery({
    queryKey: dataKeys.count(entity),
    queryFn: async ({ signal }) => {
      const r = await api.send<unknown[]>(
        `${base(entity)}?limit=1&returnCount=true&fetchPlan=_instance_name`,
        { signal }
      )
      return Number(r.headers.get('x-total-count') ?? 0)
    },
    enabled,
    staleTime: 30_000,
  })
}

export const fetchRow = (entity: string, id: string, plan: unknown, signal?: AbortSignal) =>
  api.get<EntityRow>(
    `${base(entity)}/${enc(id)}?fetchPlan=${enc(JSON.stringify(plan))}&returnNulls=true`,
    signal
  )

export interface WriteAnswer {
  _entityName: string
  _instanceName?: string
  id: string
  version?: number
}

export const createRow = (entity: string, body: Record<string, unknown>) =>
  api.request<WriteAnswer>(base(entity), { method: 'POST', body })

export const updateRow = (entity: string, id: string, body: Record<string, unknown>) =>
  api.request<WriteAnswer>(`${base(entity)}/${enc(id)}`, { method: 'PUT', body })

export const deleteRow = (entity: string, id: string) =>
  api.request<void>(`${base(entity)}/${enc(id)}`, { method: 'DELETE' })

/** Rows of `entity` whose searched attributes contain `text` (instance names shown). */
export async function searchOptions(
  entity: string,
  paths: string[],
  text: string,
  signal?: AbortSignal
) {
  const filter: Filter = {
    conditions:
      text && paths.length
        ? [
            {
              group: 'OR',
              conditions: paths.map((property) => ({
                property,
                operator: 'contains' as const,
                value: text,
              })),
            },
          ]
        : [],
  }
  return api.request<EntityRow[]>(`${base(entity)}/search`, {
    method: 'POST',
    body: { filter, fetchPlan: '_instance_name', limit: 20 },
    signal,
  })
}

export interface UploadedFile {
  fileRef: string
  name: string
  size: number
}

export function uploadFile(file: File): Promise<UploadedFile> {
  const form = new FormData()
  form.append('file', file, file.name)
  return api.request<UploadedFile>(`/rest/files?name=${enc(file.name)}`, {
    method: 'POST',
    rawBody: form,
  })
}

/** The file name a fileRef carries (`fs://…/x.pdf?name=Invoice.pdf` -> Invoice.pdf). */
export function fileNameOf(fileRef: string): string {
  const q = fileRef.indexOf('?')
  const name = q >= 0 ? new URLSearchParams(fileRef.slice(q + 1)).get('name') : null
  return name ?? fileRef.split('/').pop() ?? fileRef
}

/** Downloads with the bearer token (a plain link cannot carry it) and saves under its name. */
export async function downloadFile(fileRef: string): Promise<void> {
  const token = getAccessToken()
  const response = await fetch(`/rest/files?fileRef=${enc(fileRef)}&attachment=true`, {
    headers: token ? { Authorization: `Bearer ${token}` } : {},
  })
  if (!response.ok) {
    let body: unknown
    try {
      body = await response.json()
    } catch {
      body = undefined
    }
    throw new ApiError(response.status, body, `Download failed: HTTP ${response.status}`)
  }
  const url = URL.createObjectURL(await response.blob())
  const a = document.createElement('a')
  a.href = url
  a.download = fileNameOf(fileRef)
  document.body.append(a)
  a.click()
  a.remove()
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
}

/** An entity description of /rest/metadata (only entities the caller may read are listed). */
export interface RestEntityMeta {
  entityName: string
  properties: {
    name: string
    attributeType: string
    type: string
    description?: string
    readOnly?: boolean
  }[]
}

export function useRestEntities() {
  return useQuery({
    queryKey: dataKeys.metadata(),
    queryFn: ({ signal }) => api.get<RestEntityMeta[]>('/rest/metadata/entities', signal),
    staleTime: 60_000,
  })
}

/** Attribute captions as the REST metadata gives them (translations, then the model's caption). */
export function useCaptions(): CaptionLookup {
  const meta = useRestEntities()
  return useMemo(() => {
    const map = new Map<string, string>()
    for (const e of meta.data ?? [])
      for (const p of e.properties)
        if (p.description) map.set(`${e.entityName}.${p.name}`, p.description)
    return (entity: string, attribute: string) =>
      map.get(`${entity}.${attribute}`) ?? humanize(attribute)
  }, [meta.data])
}
