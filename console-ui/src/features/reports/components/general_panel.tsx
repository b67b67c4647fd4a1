import { useState } from 'react'
import { Field } from '../../../components/ui/field'
import { Panel } from '../../../components/ui/panel'
import { useRoleOptions } from '../../users/api/role_options'
import { RolePicker } from '../../users/components/role_picker'
import type { ReportDefinition, ReportGroup } from '../api/types'
import { newId } from '../lib/draft'
import { RestSwitch } from './rest_switch'

interface Props {
  value: ReportDefinition
  update: (patch: Partial<ReportDefinition>) => void
  groups: ReportGroup[]
  errors: Record<string, string>
}

const NEW = '__new__'

/** Name, code, group (existing or a new title), description, roles, REST flag. */
export function GeneralPanel({ value, update, groups, errors }: Props) {
  const roles = useRoleOptions('resource')
  const known = value.group && groups.some((g) => g.id === value.group!.id)
  const [wantsNew, setCreating] = useState(Boolean(value.group && !known))
  // A new group becomes an existing one once saved.
  const creating = wantsNew && !known
  const roleErrors = Object.fromEntries(
    Object.entries(errors)
      .map(([k, m]) => [/^roles\[(\d+)\]/.exec(k)?.[1], m] as const)
      .filter(([i]) => i !== undefined)
      .map(([i, m]) => [Number(i), m])
  ) as Record<number, string>
  return (
    <Panel title="General" testId="report-general">
      <div className="form-grid">
        <Field label="Name" error={errors.name}>
          <input value={value.name} onChange={(e) => update({ name: e.target.value })} required data-testid="report-name" />
        </Field>
        <Field label="Code" error={errors.code} hint="Runs it at /rest/reports/run/code/{code}.">
          <input value={value.code ?? ''} onChange={(e) => update({ code: e.target.value })} className="mono" data-testid="report-code" />
        </Field>
        <Field label="Group" error={errors.group ?? errors['group.title']}>
          <select
            value={creating ? NEW : (value.group?.id ?? '')}
            onChange={(e) => {
              if (e.target.value === NEW) {
                setCreating(true)
                update({ group: { id: newId(), title: '' } })
              } else {
                setCreating(false)
                update({ group: groups.find((g) => g.id === e.target.value) })
              }
            }}
            data-testid="report-group"
          >
            <option value="">No group</option>
            {groups.map((g) => (
              <option key={g.id} value={g.id}>
                {g.title}
              </option>
            ))}
            <option value={NEW}>New group…</option>
          </select>
        </Field>
        {creating && (
          <Field label="New group title" error={errors['group.title']}>
            <input value={value.group?.title ?? ''} onChange={(e) => update({ group: { id: value.group?.id ?? newId(), title: e.target.value } })} data-testid="report-group-title" />
          </Field>
        )}
      </div>
      <Field label="Description" error={errors.description}>
        <textarea className="rp-prose" rows={2} value={value.description ?? ''} onChange={(e) => update({ description: e.target.value })} data-testid="report-description" />
      </Field>
      <RolePicker
        label="Roles"
        options={roles.data}
        value={value.roles}
        onChange={(codes) => update({ roles: codes })}
        itemErrors={roleErrors}
        error={errors.roles}
        hint="Only users with one of these resource roles see and run it over REST; none: everyone with reports.rest.enabled."
        testId="report-roles"
      />
      <div className="rp-rest-field">
        <RestSwitch checked={value.restAccess} onChange={(restAccess) => update({ restAccess })} label="Available through the REST API" testId="report-rest-flag" />
        <div>
          <div className="field__label">Available through the REST API</div>
          <div className="field__hint">Listed and runnable at /rest/reports for users with reports.rest.enabled (and one of the roles above).</div>
        </div>
      </div>
    </Panel>
  )
}
