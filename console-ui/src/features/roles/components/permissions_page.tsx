import { Link, useSearchParams } from 'react-router'
import { EmptyState, Page } from '../../../components/ui/page'
import { Panel } from '../../../components/ui/panel'
import { Loading } from '../../../components/ui/loading'
import { ErrorMessage } from '../../../components/ui/error_message'
import { useEffectivePermissions, type Subject } from '../api/roles'
import { SubjectPicker } from './subject_picker'
import { roleHref } from './role_parts'
import { EntityGrants, RowRules, SpecificGrants } from './permissions_view'
import './roles.css'
import './access.css'

/** The subject named by `?user=` or `?client=`. */
function subjectOf(params: URLSearchParams): Subject | null {
  const user = params.get('user')
  if (user) return { kind: 'user', name: user }
  const client = params.get('client')
  return client ? { kind: 'client', name: client } : null
}

/**
 * /permissions?user=<username> | ?client=<clientId>: what a user or client may do, merged over
 * all its roles, and which role (through which child roles) grants each permission; the row
 * rules that apply to it (GET /admin/api/permissions).
 */
export function PermissionsPage() {
  const [params, setParams] = useSearchParams()
  const subject = subjectOf(params)
  const result = useEffectivePermissions(subject)
  const data = result.data

  return (
    <Page
      title="Effective permissions"
      description="Pick a user or a client: everything it may do, merged over its roles, with the role that grants each permission."
      testId="permissions-page"
    >
      <div className="panel permissions__pick">
        <SubjectPicker value={subject} onChange={(s) => setParams({ [s.kind]: s.name })} />
      </div>
      {!subject && <EmptyState title="Nobody picked yet">Search a user or a client above.</EmptyState>}
      {subject && result.isPending && <Loading />}
      {result.isError && <ErrorMessage error={result.error} testId="permissions-error" />}
      {data && (
        <>
          <Panel title={`${data.subject.kind === 'client' ? 'Client' : 'User'} ${data.subject.name}`} testId="permissions-subject">
            <dl className="facts">
              <dt>State</dt>
              <dd>
                {data.subject.active ? (
                  <span className="badge badge--ok">active</span>
                ) : (
                  <span className="badge badge--bad">inactive: gets no token</span>
                )}
                {data.subject.kind === 'anonymous' && <span className="muted"> requests on anonymous URLs run as this user</span>}
              </dd>
              {data.subject.tokenClient && (
                <>
                  <dt>Token client</dt>
                  <dd>
                    <code>{data.subject.tokenClient}</code> <span className="muted">(the value of :current_client_id)</span>
                  </dd>
                </>
              )}
              <dt>Resource roles</dt>
              <dd className="role-chips" data-testid="assigned-roles">
                {data.subject.resourceRoles.length ? (
                  data.subject.resourceRoles.map((r) => (
                    <Link key={r} className="role-chip" to={roleHref(r)}>
                      {r}
                    </Link>
                  ))
                ) : (
                  <span className="muted">none: it may do nothing</span>
                )}
              </dd>
              <dt>Row-level roles</dt>
              <dd className="role-chips">
                {data.subject.rowLevelRoles.length ? (
                  data.subject.rowLevelRoles.map((r) => (
                    <Link key={r} className="role-chip" to={roleHref(r, 'rowLevel')}>
                      {r}
                    </Link>
                  ))
                ) : (
                  <span className="muted">none: every readable row</span>
                )}
              </dd>
            </dl>
          </Panel>
          <EntityGrants data={data} />
          <SpecificGrants data={data} />
          <RowRules data={data} />
        </>
      )}
    </Page>
  )
}
