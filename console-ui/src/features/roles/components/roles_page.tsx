import { useDeferredValue, useMemo, useState } from 'react'
import { Link } from 'react-router'
import { EmptyState, Page } from '../../../components/ui/page'
import { Loading } from '../../../components/ui/loading'
import { ErrorMessage } from '../../../components/ui/error_message'
import { clientCounts, useClients, useResourceRoles, type ResourceRole } from '../api/roles'
import { roleHref } from './role_parts'
import './roles.css'

const matches = (r: ResourceRole, q: string) =>
  !q || [r.code, r.name, r.description].some((t) => t.toLowerCase().includes(q))

/** /roles: every resource role, built-in ones first, with what it grants and who holds it. */
export function RolesPage() {
  const roles = useResourceRoles()
  const clients = useClients()
  const [query, setQuery] = useState('')
  const q = useDeferredValue(query.trim().toLowerCase())
  const list = useMemo(() => (roles.data ?? []).filter((r) => matches(r, q)), [roles.data, q])
  const byClient = clientCounts(clients.data, 'resource')

  return (
    <Page
      title="Roles"
      description="Resource roles: which entities, attributes and specific policies a user or client may use. Roles add up; child roles are included."
      actions={
        <>
          <Link className="btn" to="/permissions">
            Effective permissions
          </Link>
          <Link className="btn btn--primary" to="/roles/new" data-testid="new-role">
            New role
          </Link>
        </>
      }
      testId="roles-page"
    >
      <div className="toolbar">
        <input
          className="input"
          type="search"
          placeholder="Search roles…"
          aria-label="Search roles"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          data-testid="roles-search"
        />
      </div>
      {roles.isError && <ErrorMessage error={roles.error} />}
      {roles.isPending && <Loading />}
      {roles.data && list.length === 0 && <EmptyState title={q ? 'No role matches' : 'No roles yet'} />}
      {list.length > 0 && (
        <div className="table-wrap">
          <table className="table roles-table" data-testid="roles-table">
            <thead>
              <tr>
                <th scope="col">Role</th>
                <th scope="col">Entities</th>
                <th scope="col">Attributes</th>
                <th scope="col">Specific</th>
                <th scope="col">Child roles</th>
                <th scope="col">Users</th>
                <th scope="col">Clients</th>
              </tr>
            </thead>
            <tbody>
              {list.map((r) => (
                <tr key={r.code} data-testid={`role-row-${r.code}`}>
                  <th scope="row">
                    <Link to={roleHref(r.code)} className="mono">
                      {r.code}
                    </Link>{' '}
                    {r.builtIn && <span className="badge badge--accent" data-testid="builtin-badge">built-in</span>}
                    {r.name !== r.code && <div className="muted roles-table__wrap">{r.name}</div>}
                  </th>
                  <td title="Entity policies">{count(r.entityPolicies.length, r.entityPolicies.some((p) => p.entity === '*'))}</td>
                  <td title="Attribute policies">{count(r.attributePolicies.length, r.attributePolicies.some((p) => p.entity === '*'))}</td>
                  <td className="roles-table__wrap">
                    {r.specificPolicies.length ? r.specificPolicies.map((s) => <code key={s}>{s} </code>) : <span className="muted">—</span>}
                  </td>
                  <td className="roles-table__wrap">{r.childRoles.length ? r.childRoles.join(', ') : <span className="muted">—</span>}</td>
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

function count(n: number, star: boolean) {
  if (n === 0) return <span className="muted">—</span>
  return (
    <>
      {n} {star && <span className="badge badge--outline" title="Includes a policy on every entity (*)">*</span>}
    </>
  )
}
