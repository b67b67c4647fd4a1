/*
 * The form of a row-level role: general fields, its policies (one PolicyEditor each) and the
 * "see as" preview. Saving goes through the planned change; a rule the server cannot parse is
 * refused at its field (`$.policies[0].filter`), and so is an incomplete condition, locally.
 */
import { useCallback, useMemo, useState } from 'react'
import { useNavigate } from 'react-router'
import { adminChange, fieldErrors } from '../../../lib/admin'
import { usePlannedChange } from '../../../components/plan/use_planned_change'
import { Field } from '../../../components/ui/field'
import { Panel } from '../../../components/ui/panel'
import { filterProblems } from '../../../components/filter/filter'
import { useModelEntities, useModelEnums } from '../../../lib/model'
import { useCurrentUser } from '../../../lib/auth/auth_pages'
import type { RowLevelRole } from '../api/roles'
import { asFilter, draftOfPolicy, localProblems, newPolicy, PLACEHOLDERS, policyBody, type PolicyDraft } from './row_policy_model'
import { PolicyEditor } from './policy_editor'
import { SeeAsPanel } from './see_as_panel'
import { roleHref } from './role_parts'
import { useLeaveGuard } from '../hooks/use_leave_guard'

interface Draft {
  code: string
  name: string
  description: string
  policies: PolicyDraft[]
}

const draftOf = (role: RowLevelRole | undefined): Draft => ({
  code: role?.code ?? '',
  name: role?.name ?? '',
  description: role?.description ?? '',
  policies: (role?.policies ?? []).map(draftOfPolicy),
})

const bodyOf = (d: Draft) => ({
  code: d.code.trim(),
  name: d.name.trim() || d.code.trim(),
  description: d.description,
  policies: d.policies.map(policyBody),
})

/** The draft for the preview: a blank code or name is left to the server's defaults. */
const previewRole = ({ code, name, ...rest }: ReturnType<typeof bodyOf>) => ({
  ...(code ? { code } : {}),
  ...(name ? { name } : {}),
  ...rest,
})

/** Problems of the policies keyed below each policy: index -> {'filter': …, 'entity': …}. */
function perPolicy(errors: Record<string, string>) {
  const out: Record<number, Record<string, string>> = {}
  for (const [key, message] of Object.entries(errors)) {
    const m = /^policies\[(\d+)\]\.?(.*)$/.exec(key)
    if (m) (out[Number(m[1])] ??= {})[m[2] || 'filter'] = message
  }
  return out
}

export function RowLevelRoleForm({ role, version }: { role?: RowLevelRole; version: number | null }) {
  const navigate = useNavigate()
  const model = useModelEntities()
  const enums = useModelEnums()
  const me = useCurrentUser()
  const entities = useMemo(() => (model.data ?? []).slice().sort((a, b) => a.name.localeCompare(b.name)), [model.data])
  const [draft, setDraft] = useState<{ value: Draft; version: number | null } | null>(null)
  const [local, setLocal] = useState<Record<string, string>>({})
  const [previewProblems, setPreviewProblems] = useState<Record<string, string>>({})
  const onProblems = useCallback((p: Record<string, string>) => setPreviewProblems(p), [])
  const value = draft?.value ?? draftOf(role)
  const update = (patch: Partial<Draft>) => {
    setLocal({})
    setDraft((d) => ({ value: { ...(d?.value ?? draftOf(role)), ...patch }, version: d?.version ?? version }))
  }
  const setPolicy = (i: number, next: PolicyDraft) => update({ policies: value.policies.map((p, j) => (j === i ? next : p)) })
  const body = bodyOf(value)
  const dirty = draft !== null && JSON.stringify(body) !== JSON.stringify(bodyOf(draftOf(role)))

  const change = usePlannedChange({
    title: role ? `Save row-level role ${role.code}` : `Create row-level role ${body.code}`,
    success: role ? 'Row-level role saved' : 'Row-level role created',
    onApplied: () => {
      setDraft(null)
      if (role) return
      allowLeave()
      navigate(roleHref(body.code, 'rowLevel'), { replace: true })
    },
  })
  const allowLeave = useLeaveGuard(dirty && !change.busy)

  const save = () => {
    const problems = localProblems(value.policies)
    value.policies.forEach((p, i) => {
      if (p.mode !== 'builder') return
      const found = filterProblems(asFilter(p.filter), entities, p.entity, PLACEHOLDERS)
      for (const [k, m] of Object.entries(found)) problems[`policies[${i}].filter.${k}`] = m
    })
    setLocal(problems)
    if (Object.keys(problems).length) return
    const path = role ? `row-level-roles/${encodeURIComponent(role.code)}` : 'row-level-roles'
    const sending = body
    void change.start((opts) => adminChange(role ? 'PUT' : 'POST', path, sending, { ...opts, ifMatch: draft?.version ?? version ?? undefined }))
  }

  const errors = { ...previewProblems, ...fieldErrors(change.error), ...local }
  const policyErrors = perPolicy(errors)
  const other = Object.entries(errors).filter(([k]) => !/^(code|name|description|policies\[)/.test(k))
  const incomplete = value.policies.some(
    (p) => p.mode === 'builder' && Object.keys(filterProblems(asFilter(p.filter), entities, p.entity, PLACEHOLDERS)).length > 0
  )
  const policyEntities = [...new Set(value.policies.map((p) => p.entity).filter(Boolean))]

  return (
    <form
      onSubmit={(e) => {
        e.preventDefault()
        save()
      }}
      data-testid="row-role-form"
    >
      <Panel title="General">
        <div className="form-grid">
          <Field label="Code" error={errors.code} hint={role ? 'The code cannot be changed: copy the role to rename it.' : 'Used in assignments to users and clients.'}>
            <input value={value.code} onChange={(e) => update({ code: e.target.value })} disabled={Boolean(role)} required data-testid="role-code" />
          </Field>
          <Field label="Name" error={errors.name}>
            <input value={value.name} onChange={(e) => update({ name: e.target.value })} data-testid="role-name" />
          </Field>
        </div>
        <Field label="Description" error={errors.description}>
          <input value={value.description} onChange={(e) => update({ description: e.target.value })} data-testid="role-description" />
        </Field>
      </Panel>
      <div className="row-role__layout">
        <div className="row-role__policies">
          <h2 className="row-role__heading">Policies</h2>
          <p className="muted roles-help">
            Every rule of every row-level role a subject holds applies together (AND). Compare with <code>:current_user_username</code>,{' '}
            <code>:current_user_id</code> or <code>:current_client_id</code> to mean the caller.
          </p>
          {value.policies.length === 0 && <p className="empty">No policy yet: this role restricts nothing.</p>}
          {value.policies.map((p, i) => (
            <PolicyEditor
              key={i}
              index={i}
              value={p}
              onChange={(next) => setPolicy(i, next)}
              onRemove={() => update({ policies: value.policies.filter((_, j) => j !== i) })}
              entities={entities}
              enums={enums.data ?? []}
              errors={policyErrors[i] ?? {}}
            />
          ))}
          <button type="button" className="btn" onClick={() => update({ policies: [...value.policies, newPolicy(policyEntities[0] ?? entities[0]?.name ?? '')] })} data-testid="policy-add">
            + Add policy
          </button>
        </div>
        <SeeAsPanel
          role={incomplete ? null : previewRole(body)}
          entities={policyEntities}
          allEntities={entities.map((e) => e.name)}
          initialSubject={me.data?.username ? { kind: 'user', name: me.data.username } : null}
          onProblems={onProblems}
        />
      </div>
      <div className="role-savebar" data-testid="role-savebar">
        <span className="role-savebar__text muted">
          {other.length > 0 ? (
            <span className="field__error" role="alert" data-testid="role-errors">
              {other.map(([k, m]) => (k ? `${k}: ${m}` : m)).join('; ')}
            </span>
          ) : dirty ? 'Unsaved changes' : role ? 'No changes' : 'New row-level role'}
        </span>
        {dirty && (
          <button type="button" className="btn" onClick={() => { setDraft(null); setLocal({}); change.clearError() }} data-testid="role-discard">
            Discard changes
          </button>
        )}
        <button type="submit" className="btn btn--primary" disabled={change.busy || (!dirty && Boolean(role)) || !value.code.trim()} data-testid="role-save">
          {change.busy ? 'Planning…' : role ? 'Review and save' : 'Review and create'}
        </button>
      </div>
      {change.dialog}
    </form>
  )
}
