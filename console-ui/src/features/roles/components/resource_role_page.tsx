import { Link, useParams } from 'react-router'
import { Page } from '../../../components/ui/page'
import { Loading } from '../../../components/ui/loading'
import { ErrorMessage } from '../../../components/ui/error_message'
import { clientCounts, useClients, useResourceRole, useResourceRoles } from '../api/roles'
import { ResourceRoleForm } from './resource_role_form'
import { CopyRoleButton, DeleteRoleButton } from './role_actions'
import './roles.css'

/** /roles/new and /roles/:code: the editor of one resource role (built-in ones read-only). */
export function ResourceRolePage() {
  const { code } = useParams()
  const role = useResourceRole(code)
  const roles = useResourceRoles()
  const clients = useClients()

  if (code === undefined) {
    return (
      <Page title="New resource role" description="What a role may do: entities, attributes, specific policies and child roles." testId="role-page">
        {roles.data ? <ResourceRoleForm key="new" version={null} roles={roles.data} /> : <Loading />}
      </Page>
    )
  }
  if (role.isError) {
    return (
      <Page title={`Role ${code}`}>
        <ErrorMessage error={role.error} testId="role-error" />
        <Link to="/roles">All roles</Link>
      </Page>
    )
  }
  if (!role.data || !roles.data) return <Loading />
  const data = role.data.data
  const users = data.users ?? []
  const holders = clientCounts(clients.data, 'resource').get(data.code) ?? []
  return (
    <Page
      title={data.name && data.name !== data.code ? `${data.name}` : `Role ${data.code}`}
      description={
        <>
          <code data-testid="role-title-code">{data.code}</code>
          {data.builtIn && <span className="badge badge--accent roles-builtin">built-in</span>}
          {data.description && data.description !== data.name ? ` — ${data.description}` : ''}
        </>
      }
      actions={
        <>
          <CopyRoleButton kind="resource" code={data.code} name={data.name} />
          {!data.builtIn && <DeleteRoleButton kind="resource" code={data.code} users={users} clients={holders} version={role.data.version} />}
        </>
      }
      testId="role-page"
    >
      {data.builtIn && (
        <p className="notice" data-testid="builtin-notice">
          This role is built into the server and cannot be changed. Copy it to make a role of your own from it.
        </p>
      )}
      <Holders users={users} clients={holders} />
      <ResourceRoleForm key={data.code} role={data} version={role.data.version} roles={roles.data} />
    </Page>
  )
}

/** Who holds the role: links to their effective permissions. */
export function Holders({ users, clients }: { users: string[]; clients: string[] }) {
  return (
    <div className="role-holders" data-testid="role-holders">
      <span className="muted">Held by</span>
      {users.length === 0 && clients.length === 0 && <span className="muted">nobody yet</span>}
      {users.map((u) => (
        <Link key={u} className="role-chip" to={`/permissions?user=${encodeURIComponent(u)}`} title={`Effective permissions of ${u}`}>
          {u}
        </Link>
      ))}
      {clients.map((c) => (
        <Link key={c} className="role-chip" to={`/permissions?client=${encodeURIComponent(c)}`} title={`Effective permissions of client ${c}`}>
          client {c}
        </Link>
      ))}
    </div>
  )
}
