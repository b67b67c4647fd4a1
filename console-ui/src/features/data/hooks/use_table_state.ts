/*
 * The table's state: paging, sort, filter and quick search in the URL (a view can be shared and
 * survives a reload); the chosen columns per entity in localStorage.
 */
import { useCallback, useMemo, useState } from 'react'
import { useSearchParams } from 'react-router'
import { emptyFilter, type Filter } from '../../../components/filter/filter'

export const PAGE_SIZES = [25, 50, 100, 250, 500] as const
export const DEFAULT_PAGE_SIZE = 50

export interface SortKey {
  property: string
  desc: boolean
}

export const parseSort = (s: string | null): SortKey[] =>
  (s ?? '')
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean)
    .map((x) => ({ property: x.replace(/^[-+]/, ''), desc: x.startsWith('-') }))

export const sortText = (keys: SortKey[]) =>
  keys.map((k) => (k.desc ? '-' : '') + k.property).join(',')

/** Clicking a header: ascending, then descending, then no sort on that column. */
export function cycleSort(keys: SortKey[], property: string): SortKey[] {
  const current = keys.find((k) => k.property === property)
  if (!current) return [{ property, desc: false }]
  if (!current.desc) return [{ property, desc: true }]
  return []
}

function parseFilter(text: string | null): Filter {
  if (!text) return emptyFilter()
  try {
    const value = JSON.parse(text) as Filter
    return Array.isArray(value?.conditions) ? value : emptyFilter()
  } catch {
    return emptyFilter()
  }
}

export function useTableState(entity: string) {
  const [params, setParams] = useSearchParams()
  const page = Math.max(1, Number(params.get('page')) || 1)
  const sizeParam = Number(params.get('size'))
  const size = (PAGE_SIZES as readonly number[]).includes(sizeParam) ? sizeParam : DEFAULT_PAGE_SIZE
  const sortParam = params.get('sort')
  const filterParam = params.get('filter')
  const sort = useMemo(() => parseSort(sortParam), [sortParam])
  const filter = useMemo(() => parseFilter(filterParam), [filterParam])
  const q = params.get('q') ?? ''

  const update = useCallback(
    (changes: Record<string, string | null>) =>
      setParams(
        (old) => {
          const next = new URLSearchParams(old)
          for (const [k, v] of Object.entries(changes)) {
            if (v === null || v === '') next.delete(k)
            else next.set(k, v)
          }
          return next
        },
        { replace: true }
      ),
    [setParams]
  )

  return {
    page,
    size,
    sort,
    filter,
    q,
    setPage: (p: number) => update({ page: p > 1 ? String(p) : null }),
    setSize: (s: number) =>
      update({ size: s === DEFAULT_PAGE_SIZE ? null : String(s), page: null }),
    setSort: (keys: SortKey[]) => update({ sort: sortText(keys) || null, page: null }),
    setFilter: (f: Filter) =>
      update({ filter: f.conditions.length ? JSON.stringify(f) : null, page: null }),
    setQ: (text: string) => update({ q: text || null, page: null }),
    entity,
  }
}

const columnsKey = (entity: string) => `modelgate.data.columns.${entity}`

/** The chosen columns of an entity (localStorage), or the defaults. */
export function useColumns(entity: string, defaults: string[]) {
  const read = () => {
    try {
      const stored = JSON.parse(localStorage.getItem(columnsKey(entity)) ?? 'null') as unknown
      return Array.isArray(stored) && stored.every((c) => typeof c === 'string')
        ? (stored as string[])
        : null
    } catch {
      return null
    }
  }
  const [state, setState] = useState<{ entity: string; columns: string[] | null }>(() => ({
    entity,
    columns: read(),
  }))
  const columns = state.entity === entity ? state.columns : read()
  const setColumns = (next: string[] | null) => {
    if (next) localStorage.setItem(columnsKey(entity), JSON.stringify(next))
    else localStorage.removeItem(columnsKey(entity))
    setState({ entity, columns: next })
  }
  return [columns ?? defaults, setColumns, columns !== null] as const
}
