import { useDeferredValue, useMemo, useState } from 'react'
import { useNavigate } from 'react-router'
import { useQuery } from '@tanstack/react-query'
import { Combobox, ComboboxInput, ComboboxOption, ComboboxOptions, Dialog, DialogPanel } from '@headlessui/react'
import { adminGet } from '../lib/admin'

interface Hit {
  kind: 'Entity' | 'Attribute' | 'Enum' | 'Role' | 'Row-level role' | 'User' | 'Client' | 'Report'
  label: string
  detail?: string
  to: string
}

interface Named {
  name: string
  attributes?: { name: string; type?: string }[]
}

/** Everything the search finds, loaded once when it opens (the admin API's lists). */
async function loadIndex(signal: AbortSignal): Promise<Hit[]> {
  const [entities, enums, roles, rowRoles, users, clients, reports] = await Promise.all([
    adminGet<Named[]>('entities', signal),
    adminGet<Named[]>('enums', signal),
    adminGet<{ roles: { code: string; name?: string }[] }>('resource-roles', signal),
    adminGet<{ roles: { code: string; name?: string }[] }>('row-level-roles', signal),
    adminGet<{ users: { username: string; firstName?: string; lastName?: string }[] }>('users?limit=500', signal),
    adminGet<{ clientId: string; name?: string }[]>('clients', signal),
    adminGet<{ reports: { id: string; name: string; code?: string }[] }>('reports', signal).catch(() => ({ reports: [] })),
  ])
  const hits: Hit[] = []
  for (const e of entities) {
    hits.push({ kind: 'Entity', label: e.name, to: `/model/entities/${e.name}` })
    for (const a of e.attributes ?? [])
      hits.push({ kind: 'Attribute', label: `${e.name}.${a.name}`, detail: a.type, to: `/model/entities/${e.name}?attribute=${a.name}` })
  }
  for (const e of enums) hits.push({ kind: 'Enum', label: e.name, to: `/model/enums/${e.name}` })
  for (const r of roles.roles) hits.push({ kind: 'Role', label: r.code, detail: r.name, to: `/roles/${r.code}` })
  for (const r of rowRoles.roles) hits.push({ kind: 'Row-level role', label: r.code, detail: r.name, to: `/row-level-roles/${r.code}` })
  for (const u of users.users)
    hits.push({ kind: 'User', label: u.username, detail: [u.firstName, u.lastName].filter(Boolean).join(' '), to: `/users/${u.username}` })
  for (const c of clients) hits.push({ kind: 'Client', label: c.clientId, detail: c.name, to: `/clients/${c.clientId}` })
  for (const r of reports.reports) hits.push({ kind: 'Report', label: r.name, detail: r.code, to: `/reports/${r.id}` })
  return hits
}

/** Ctrl+K / "/": find entities, attributes, enums, roles, users and clients by name. */
export function GlobalSearch({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [query, setQuery] = useState('')
  const deferred = useDeferredValue(query)
  const navigate = useNavigate()
  const index = useQuery({
    queryKey: ['admin', 'search-index'],
    queryFn: ({ signal }) => loadIndex(signal),
    enabled: open,
    staleTime: 30_000,
  })
  const hits = useMemo(() => {
    const q = deferred.trim().toLowerCase()
    if (!q || !index.data) return []
    return index.data
      .filter((h) => h.label.toLowerCase().includes(q) || h.detail?.toLowerCase().includes(q))
      .sort((a, b) => Number(!a.label.toLowerCase().startsWith(q)) - Number(!b.label.toLowerCase().startsWith(q)))
      .slice(0, 30)
  }, [deferred, index.data])

  const close = () => {
    setQuery('')
    onClose()
  }
  return (
    <Dialog open={open} onClose={close} className="dialog">
      <div className="dialog__backdrop" aria-hidden="true" />
      <div className="dialog__frame dialog__frame--top">
        <DialogPanel className="dialog__panel search" data-testid="search-dialog">
          <Combobox<Hit | null>
            onChange={(hit) => {
              if (!hit) return
              close()
              void navigate(hit.to)
            }}
          >
            <ComboboxInput
              autoFocus
              className="input search__input"
              placeholder="Search entities, attributes, roles, users, clients, reports…"
              aria-label="Search"
              onChange={(e) => setQuery(e.target.value)}
              data-testid="search-input"
            />
            <ComboboxOptions static className="search__results" data-testid="search-results">
              {index.isPending && <div className="search__note">Loading…</div>}
              {query && index.data && hits.length === 0 && <div className="search__note">Nothing found for “{query}”.</div>}
              {hits.map((hit) => (
                <ComboboxOption key={hit.kind + hit.label} value={hit} className="search__hit">
                  <span className="badge">{hit.kind}</span> <span className="search__label">{hit.label}</span>
                  {hit.detail && <span className="muted"> {hit.detail}</span>}
                </ComboboxOption>
              ))}
            </ComboboxOptions>
          </Combobox>
        </DialogPanel>
      </div>
    </Dialog>
  )
}
