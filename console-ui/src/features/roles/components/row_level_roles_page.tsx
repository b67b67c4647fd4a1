import { useDeferredValue, useMemo, useState } from 'react'
import { Link } from 'react-router'
import { EmptyState, Page } from '../../../components/ui/page'
import { Loading } from '../../../components/ui/loading'
import { ErrorMessage } from '../../../components/ui/error_message'
import { clientCounts, useClients, useRowLevelRoles, type RowLevelRole } from '../api/roles'
import { roleHref } from './role_parts'
import { filterText } from './filter_text'
import './roles.css'

const matches = (r: RowLevelRole, q: string) =>
  !q || [r.code, r.name, r.description, ...r.policies.map((p) => p.entity)].some((t) => t.toLowerCase().includes(q))

/** /row-level-roles: every row-level role with its rules and who holds it. */
export function RowLevelRolesPage() {
  const roles = useRowLevelRoles()
  const clients = useClients()
  const [query, setQuery] = useState('')
  const q = useDeferredValue(query.trim().toLowerCase())
  const list = useMemo(() => (roles.data ?? []).filter((r) => matches(r, q)), [roles.data, q])
  const byClient = clientCounts(clients.data, 'rowLevel')

  return (
    <Page
      title="Row-level roles"
      description="Which rows a subject may see or change: rules in the filter language, applied in SQL to every read and checked on every write."
      actions={
        <Link className="btn btn--primary" to="/row-level-roles/new" data-testid="new-row-role">
          New row-level role
        </Link>
      }
      testId="row-roles-page"
    >
      <div className="toolbar">
        <input className="input" type="search" placeholder="Search row-level roles…" aria-label="Search row-level roles" value={query} onChange={(e) => setQuery(e.target.value)} />
      </div>
      {roles.isError && <ErrorMessage error={roles.error} />}
      {roles.isPending && <Loading />}
      {roles.data && list.length === 0 && (
        <EmptyState title={q ? 'No row-level role matches' : 'No row-level roles yet'}>
          {!q && 'Without row-level roles every subject sees every row of the entities its resource roles let it read.'}
        </EmptyState>
      )}
      {list.length > 0 && (
        <div className="table-wrap">
          <table className="table roles-table" data-testid="row-roles-table">
            <thead>
              <tr>
                <th scope="col">Role</th>
                <th scope="col">Rules</th>
                <th scope="col">Users</th>
                <th scope="col">Clients</th>
              </tr>
            </thead>
            <tbody>
              {list.map((r) => (
                <tr key={r.code} data-testid={`row-role-${r.code}`}>
                  <th scope="row">
                    <Link to={roleHref(r.code, 'rowLevel')} className="mono">
                      {r.code}
                    </Link>
                    {r.name !== r.code && <div className="muted roles-table__wrap">{r.name}</div>}
                  </th>
                  <td className="roles-table__wrap">
                    {r.policies.length === 0 && <span className="muted">none</span>}
                    {r.policies.map((p, i) => (
                      <div key={i}>
                        <code>{p.entity}</code> <span className="badge badge--outline">{p.type === 'filter' ? 'read filter' : p.actions.join(', ')}</span>{' '}
                        <span className="muted">{filterText(p.filter)}</span>
                      </div>
                    ))}
                  </td>
                  <td data-testid="role-users">{r.userCount ?? 0}</td>
                  <td data-testid="role-clients">{byClient.get(r.code)?.length ?? 0}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Page>
  )
}
