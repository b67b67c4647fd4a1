import { Link, useParams } from 'react-router'
import { Page } from '../../../components/ui/page'
import { Loading } from '../../../components/ui/loading'
import { ErrorMessage } from '../../../components/ui/error_message'
import { clientCounts, useClients, useRowLevelRole } from '../api/roles'
import { RowLevelRoleForm } from './row_level_role_form'
import { CopyRoleButton, DeleteRoleButton } from './role_actions'
import { Holders } from './resource_role_page'
import './roles.css'
import './access.css'

/** /row-level-roles/new and /row-level-roles/:code: the editor of one row-level role. */
export function RowLevelRolePage() {
  const { code } = useParams()
  const role = useRowLevelRole(code)
  const clients = useClients()

  if (code === undefined) {
    return (
      <Page title="New row-level role" description="Which rows a role may see or change, as rules over the entities' attributes." testId="row-role-page">
        <RowLevelRoleForm key="new" version={null} />
      </Page>
    )
  }
  if (role.isError) {
    return (
      <Page title={`Row-level role ${code}`}>
        <ErrorMessage error={role.error} testId="role-error" />
        <Link to="/row-level-roles">All row-level roles</Link>
      </Page>
    )
  }
  if (!role.data) return <Loading />
  const data = role.data.data
  const users = data.users ?? []
  const holders = clientCounts(clients.data, 'rowLevel').get(data.code) ?? []
  return (
    <Page
      title={data.name && data.name !== data.code ? data.name : `Row-level role ${data.code}`}
      description={
        <>
          <code data-testid="role-title-code">{data.code}</code>
          {data.description && data.description !== data.name ? ` — ${data.description}` : ''}
        </>
      }
      actions={
        <>
          <CopyRoleButton kind="rowLevel" code={data.code} name={data.name} />
          <DeleteRoleButton kind="rowLevel" code={data.code} users={users} clients={holders} version={role.data.version} />
        </>
      }
      testId="row-role-page"
    >
      <Holders users={users} clients={holders} />
      <RowLevelRoleForm key={data.code} role={data} version={role.data.version} />
    </Page>
  )
}
