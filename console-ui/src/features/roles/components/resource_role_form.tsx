/*
 * The form of a resource role: general fields, the permission matrix, specific policies and
 * child roles. Edits live in a draft (with the definition version it was started at, sent as
 * If-Match); saving goes through the planned change (dry run, plan, apply) and a 422 shows at
 * the field, cell or row it concerns.
 */
import { useMemo, useState } from 'react'
import { useNavigate } from 'react-router'
import { adminChange, fieldErrors, problemsOf } from '../../../lib/admin'
import { usePlannedChange } from '../../../components/plan/use_planned_change'
import { Field } from '../../../components/ui/field'
import { Panel } from '../../../components/ui/panel'
import { captionOf, useModelEntities } from '../../../lib/model'
import type { ResourceRole } from '../api/roles'
import { fromPolicies, matrixProblems, toPolicies, type MatrixState } from './matrix_model'
import { PermissionMatrix, type MatrixEntity } from './permission_matrix'
import { ChildRolesPicker, roleHref, SpecificPolicies } from './role_parts'
import { useLeaveGuard } from '../hooks/use_leave_guard'

interface Draft {
  code: string
  name: string
  description: string
  scopes: string[]
  childRoles: string[]
  specificPolicies: string[]
  matrix: MatrixState
}

const EMPTY_ROLE: ResourceRole = {
  code: '',
  name: '',
  description: '',
  scopes: ['API', 'UI'],
  childRoles: [],
  entityPolicies: [],
  attributePolicies: [],
  specificPolicies: [],
}

const draftOf = (role: ResourceRole): Draft => ({
  code: role.code,
  name: role.name,
  description: role.description,
  scopes: role.scopes,
  childRoles: role.childRoles,
  specificPolicies: role.specificPolicies,
  matrix: fromPolicies(role.entityPolicies, role.attributePolicies),
})

/** The role the draft describes, as PUT/POST take it. */
const bodyOf = (draft: Draft, original: ResourceRole) => ({
  code: draft.code.trim(),
  name: draft.name.trim() || draft.code.trim(),
  description: draft.description,
  scopes: draft.scopes,
  childRoles: draft.childRoles,
  ...toPolicies(draft.matrix, original),
  specificPolicies: draft.specificPolicies,
})

/** Problems at `$.<list>[i]`, keyed by the value sent at i. */
function byValue(errors: Record<string, string>, list: string, sent: string[]) {
  const out: Record<string, string> = {}
  for (const [key, message] of Object.entries(errors)) {
    const m = new RegExp(`^${list}\\[(\\d+)\\]$`).exec(key)
    const value = m ? sent[Number(m[1])] : undefined
    if (value !== undefined) out[value] = message
  }
  return out
}

interface FormProps {
  /** The stored role; undefined for a new one. */
  role?: ResourceRole
  version: number | null
  roles: ResourceRole[]
}

export function ResourceRoleForm({ role, version, roles }: FormProps) {
  const navigate = useNavigate()
  const model = useModelEntities()
  const original = role ?? EMPTY_ROLE
  const readOnly = Boolean(role?.builtIn)
  const [draft, setDraft] = useState<{ value: Draft; version: number | null } | null>(null)
  const [sent, setSent] = useState<ReturnType<typeof bodyOf> | null>(null)
  const value = draft?.value ?? draftOf(original)
  const update = (patch: Partial<Draft>) =>
    setDraft((d) => ({ value: { ...(d?.value ?? draftOf(original)), ...patch }, version: d?.version ?? version }))
  const body = bodyOf(value, original)
  const dirty = draft !== null && JSON.stringify(body) !== JSON.stringify(bodyOf(draftOf(original), original))

  const change = usePlannedChange({
    title: role ? `Save role ${original.code}` : `Create role ${body.code}`,
    success: role ? 'Role saved' : 'Role created',
    onApplied: () => {
      setDraft(null)
      if (role) return
      allowLeave()
      navigate(roleHref(body.code), { replace: true })
    },
  })
  const allowLeave = useLeaveGuard(dirty && !change.busy)

  const entities = useMemo<MatrixEntity[]>(
    () =>
      (model.data ?? [])
        .map((e) => ({ name: e.name, caption: captionOf(e), attributes: e.attributes.map((a) => ({ name: a.name, type: a.type })) }))
        .sort((a, b) => a.name.localeCompare(b.name)),
    [model.data]
  )

  const save = () => {
    const sending = body
    setSent(sending)
    const path = role ? `resource-roles/${encodeURIComponent(original.code)}` : 'resource-roles'
    void change.start((opts) => adminChange(role ? 'PUT' : 'POST', path, sending, { ...opts, ifMatch: draft?.version ?? version ?? undefined }))
  }

  const errors = fieldErrors(change.error)
  const { cells, rest } = matrixProblems(problemsOf(change.error), sent)
  const childErrors = byValue(errors, 'childRoles', sent?.childRoles ?? [])
  const specificErrors = byValue(errors, 'specificPolicies', sent?.specificPolicies ?? [])
  const atField = (path: string) => {
    const m = /^\$\.(code|name|description|scopes)\b/.exec(path)
    if (m) return true
    const item = /^\$\.(childRoles|specificPolicies)\[(\d+)\]$/.exec(path)
    return Boolean(item && (item[1] === 'childRoles' ? sent?.childRoles : sent?.specificPolicies)?.[Number(item[2])] !== undefined)
  }
  const elsewhere = rest.filter((p) => !atField(p.path))
  const cellList = Object.entries(cells)

  return (
    <form
      onSubmit={(e) => {
        e.preventDefault()
        if (!readOnly) save()
      }}
      data-testid="role-form"
    >
      <Panel title="General">
        <div className="form-grid">
          <Field label="Code" error={errors.code} hint={role ? 'The code cannot be changed: copy the role to rename it.' : 'Letters, digits, dots, dashes; used in assignments.'}>
            <input value={value.code} onChange={(e) => update({ code: e.target.value })} disabled={Boolean(role)} required data-testid="role-code" />
          </Field>
          <Field label="Name" error={errors.name}>
            <input value={value.name} onChange={(e) => update({ name: e.target.value })} disabled={readOnly} data-testid="role-name" />
          </Field>
        </div>
        <Field label="Description" error={errors.description}>
          <input value={value.description} onChange={(e) => update({ description: e.target.value })} disabled={readOnly} data-testid="role-description" />
        </Field>
        <fieldset className="roles-fieldset">
          <legend className="field__label">Scopes</legend>
          {['API', 'UI'].map((scope) => (
            <label key={scope} className="check roles-scope">
              <input
                type="checkbox"
                checked={value.scopes.includes(scope)}
                disabled={readOnly}
                onChange={(e) => update({ scopes: e.target.checked ? [...value.scopes, scope] : value.scopes.filter((s) => s !== scope) })}
                data-testid={`scope-${scope}`}
              />
              {scope}
            </label>
          ))}
          <span className="field__hint">Only roles with the API scope apply to REST and admin API requests.</span>
          {errors.scopes && <span className="field__error" role="alert" data-testid="field-error">{errors.scopes}</span>}
        </fieldset>
      </Panel>

      <Panel title="Entities and attributes" testId="matrix-panel">
        <p className="muted roles-help">
          Tick what the role may do with each entity; open an entity (▸) for its attributes. An attribute without View is
          absent from every answer; without Modify it is read-only. Shaded ticks are granted anyway through a wider policy (<code>*</code>).
        </p>
        {cellList.length > 0 && (
          <div className="error" role="alert" data-testid="matrix-problems">
            <strong>The matrix has {cellList.length === 1 ? 'a problem' : `${cellList.length} problems`}:</strong>
            <ul className="role-errors">
              {cellList.map(([key, message]) => (
                <li key={key}>
                  <code>{key.replace(/^(entity|attr):/, '')}</code>: {message}
                </li>
              ))}
            </ul>
          </div>
        )}
        <PermissionMatrix entities={entities} value={value.matrix} onChange={(matrix) => update({ matrix })} readOnly={readOnly} errors={cells} />
      </Panel>

      <div className="grid-2">
        <Panel title="Specific policies">
          <SpecificPolicies value={value.specificPolicies} onChange={(specificPolicies) => update({ specificPolicies })} disabled={readOnly} errors={specificErrors} />
        </Panel>
        <Panel title="Child roles">
          <p className="muted roles-help">This role also grants everything its child roles grant.</p>
          <ChildRolesPicker code={value.code} roles={roles} value={value.childRoles} onChange={(childRoles) => update({ childRoles })} disabled={readOnly} errors={childErrors} />
        </Panel>
      </div>

      {!readOnly && (
        <div className="role-savebar" data-testid="role-savebar">
          <span className="role-savebar__text muted">
            {elsewhere.length > 0 ? (
              <span className="field__error" role="alert" data-testid="role-errors">{elsewhere.map((p) => `${p.path}: ${p.message}`).join('; ')}</span>
            ) : dirty ? 'Unsaved changes' : role ? 'No changes' : 'New role'}
          </span>
          {dirty && (
            <button type="button" className="btn" onClick={() => { setDraft(null); change.clearError() }} data-testid="role-discard">
              Discard changes
            </button>
          )}
          <button type="submit" className="btn btn--primary" disabled={change.busy || (!dirty && Boolean(role)) || !value.code.trim()} data-testid="role-save">
            {change.busy ? 'Planning…' : role ? 'Review and save' : 'Review and create'}
          </button>
        </div>
      )}
      {change.dialog}
    </form>
  )
}
