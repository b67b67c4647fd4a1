/*
 * Named queries (admin API `/admin/api/queries`) and their preview: the draft's filter with the
 * given parameter values, run by POST /rest/entities/{e}/search as the signed-in administrator.
 */
import { useQuery } from '@tanstack/react-query'
import { api } from '../../../lib/api'
import { adminGet, adminGetVersioned } from '../../../lib/admin'
import type { Filter } from '../../../components/filter/filter'

const SCALAR_TYPES = ['string', 'int', 'long', 'double', 'decimal', 'boolean', 'date', 'time', 'dateTime', 'uuid', 'enum', 'entity'] as const
/** Scalar types, then their lists (`X[]`, bound to `in` / `notIn`). */
export const PARAM_TYPES = [...SCALAR_TYPES, ...SCALAR_TYPES.filter((t) => t !== 'boolean').map((t) => `${t}[]`)]

/** `enum` for `enum` and `enum[]`. */
export const baseType = (type: string) => type.replace(/\[\]$/, '')
export const isList = (type: string) => type.endsWith('[]')

export interface QueryParam {
  name: string
  type: string
  enum?: string
  entity?: string
}

export interface NamedQuery {
  entity: string
  name: string
  fetchPlan?: string
  filter: Filter
  sort?: string
  limit?: number
  offset?: number
  params: QueryParam[]
}

/** Query keys of this area (under 'admin': every admin change invalidates them). */
export const queriesKeys = {
  all: ['admin', 'queries'] as const,
  list: () => [...queriesKeys.all, 'list'] as const,
  one: (entity: string, name: string) => [...queriesKeys.all, 'one', entity, name] as const,
  preview: (body: unknown) => ['rest', 'query-preview', body] as const,
}

export const queryPath = (entity: string, name: string) => `queries/${encodeURIComponent(entity)}/${encodeURIComponent(name)}`
export const queryHref = (q: { entity: string; name: string }) => `/${queryPath(q.entity, q.name)}`

export function useNamedQueries() {
  return useQuery({
    queryKey: queriesKeys.list(),
    queryFn: async ({ signal }) => (await adminGet<{ queries: NamedQuery[] }>('queries', signal)).queries,
  })
}

export function useNamedQuery(entity: string | undefined, name: string | undefined) {
  return useQuery({
    queryKey: queriesKeys.one(entity ?? '', name ?? ''),
    queryFn: ({ signal }) => adminGetVersioned<NamedQuery>(queryPath(entity!, name!), signal),
    enabled: entity !== undefined && name !== undefined,
  })
}

/** The filter with `:param` values replaced by the given values (as the server does). */
export function bindFilter(filter: unknown, values: Record<string, string>, lists: ReadonlySet<string> = new Set()): unknown {
  if (Array.isArray(filter)) return filter.map((f) => bindFilter(f, values, lists))
  if (!filter || typeof filter !== 'object') return filter
  const node: Record<string, unknown> = { ...(filter as Record<string, unknown>) }
  if (Array.isArray(node.conditions)) node.conditions = bindFilter(node.conditions, values, lists)
  if ('value' in node) {
    const bind = (v: unknown): unknown => {
      if (typeof v !== 'string' || !v.startsWith(':') || !(v.slice(1) in values)) return v
      const name = v.slice(1)
      return lists.has(name) ? (values[name] ?? "").split(',').map((x) => x.trim()).filter(Boolean) : values[name]
    }
    node.value = Array.isArray(node.value) ? node.value.flatMap((v) => [bind(v)].flat()) : bind(node.value)
  }
  return node
}

export interface Preview {
  total: number
  rows: { id: string; _instanceName?: string }[]
}

/** The first rows and the count the draft finds for these values. */
export async function previewQuery(query: NamedQuery, values: Record<string, string>, signal?: AbortSignal): Promise<Preview> {
  const response = await api.send<Preview['rows']>(`/rest/entities/${encodeURIComponent(query.entity)}/search`, {
    method: 'POST',
    body: {
      filter: bindFilter(query.filter, values, new Set(query.params.filter((p) => isList(p.type)).map((p) => p.name))),
      ...(query.sort ? { sort: query.sort } : {}),
      fetchPlan: '_instance_name',
      limit: 10,
      returnCount: true,
    },
    signal,
  })
  return { rows: response.data, total: Number(response.headers.get('X-Total-Count') ?? response.data.length) }
}
