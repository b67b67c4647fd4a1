/*
 * Pieces of the resource role editor: links to roles (with the child-role chain a grant comes
 * through), the specific policies and the child roles picker.
 */
import { useState } from 'react'
import { Link } from 'react-router'
import type { ResourceRole, RoleGrant } from '../api/roles'
import { SPECIFIC_POLICIES } from '../api/roles'

export const roleHref = (code: string, kind: 'resource' | 'rowLevel' = 'resource') =>
  `/${kind === 'resource' ? 'roles' : 'row-level-roles'}/${encodeURIComponent(code)}`

/** A link to a role; with `via`, the chain of child roles down to the one that grants. */
export function RoleChip({ grant, kind = 'resource' }: { grant: RoleGrant; kind?: 'resource' | 'rowLevel' }) {
  const last = grant.via.at(-1)
  return (
    <span className="role-chips" data-testid="role-grant">
      <Link className="role-chip" to={roleHref(grant.role, kind)} title={`Open role ${grant.role}`}>
        {grant.role}
      </Link>
      {grant.via.length > 0 && (
        <span className="role-chip__via" title={`through child roles: ${grant.via.join(' → ')}`}>
          → {grant.via.slice(0, -1).map((c) => `${c} → `)}
          <Link className="role-chip" to={roleHref(last!, kind)}>
            {last}
          </Link>
        </span>
      )}
    </span>
  )
}

interface SpecificProps {
  value: string[]
  onChange: (next: string[]) => void
  disabled: boolean
  /** Problems keyed by policy name. */
  errors: Record<string, string>
}

export function SpecificPolicies({ value, onChange, disabled, errors }: SpecificProps) {
  const all = value.includes('*')
  const toggle = (name: string, on: boolean) =>
    onChange(on ? [...value, name] : value.filter((v) => v !== name))
  return (
    <ul className="check-list" data-testid="specific-policies">
      {SPECIFIC_POLICIES.map((p) => {
        const implied = all && p.name !== '*' && p.name !== 'admin.api' && !value.includes(p.name)
        return (
          <li key={p.name}>
            <label className="check">
              <input
                type="checkbox"
                checked={value.includes(p.name) || implied}
                disabled={disabled || implied}
                onChange={(e) => toggle(p.name, e.target.checked)}
                data-testid={`specific-${p.name}`}
              />
              <span>
                {p.label} <code>{p.name}</code>
              </span>
            </label>
            <span className="field__hint">{implied ? 'granted by *' : p.hint}</span>
            {errors[p.name] && (
              <span className="field__error" role="alert" data-testid="field-error">
                {errors[p.name]}
              </span>
            )}
          </li>
        )
      })}
      {value
        .filter((name) => !SPECIFIC_POLICIES.some((p) => p.name === name))
        .map((name) => (
          <li key={name}>
            <label className="check">
              <input type="checkbox" checked disabled={disabled} onChange={() => toggle(name, false)} />
              <code>{name}</code> <span className="badge badge--bad">unknown</span>
            </label>
            {errors[name] && (
              <span className="field__error" role="alert" data-testid="field-error">
                {errors[name]}
              </span>
            )}
          </li>
        ))}
    </ul>
  )
}

interface ChildRolesProps {
  code: string
  roles: ResourceRole[]
  value: string[]
  onChange: (next: string[]) => void
  disabled: boolean
  errors: Record<string, string>
}

/** Child roles: this role also grants everything they grant (transitively). */
export function ChildRolesPicker({ code, roles, value, onChange, disabled, errors }: ChildRolesProps) {
  const [filter, setFilter] = useState('')
  const needle = filter.trim().toLowerCase()
  const known = new Set(roles.map((r) => r.code))
  const candidates = roles.filter(
    (r) =>
      r.code !== code &&
      (!needle || r.code.toLowerCase().includes(needle) || r.name.toLowerCase().includes(needle) || value.includes(r.code))
  )
  const toggle = (child: string, on: boolean) =>
    onChange(on ? [...value, child] : value.filter((v) => v !== child))
  return (
    <div data-testid="child-roles">
      {roles.length > 8 && (
        <input
          className="input"
          type="search"
          placeholder="Filter roles…"
          aria-label="Filter child roles"
          value={filter}
          onChange={(e) => setFilter(e.target.value)}
        />
      )}
      <ul className="check-list">
        {value
          .filter((c) => !known.has(c))
          .map((c) => (
            <li key={c}>
              <label className="check">
                <input type="checkbox" checked disabled={disabled} onChange={() => toggle(c, false)} />
                <code>{c}</code> <span className="badge badge--bad">unknown role</span>
              </label>
              {errors[c] && <span className="field__error" role="alert" data-testid="field-error">{errors[c]}</span>}
            </li>
          ))}
        {candidates.map((r) => (
          <li key={r.code}>
            <label className="check">
              <input
                type="checkbox"
                checked={value.includes(r.code)}
                disabled={disabled}
                onChange={(e) => toggle(r.code, e.target.checked)}
                data-testid={`child-${r.code}`}
              />
              <span>
                <code>{r.code}</code> {r.builtIn && <span className="badge badge--outline">built-in</span>}
              </span>
            </label>
            <span className="field__hint">{r.name !== r.code ? r.name : r.description || ' '}</span>
            {errors[r.code] && <span className="field__error" role="alert" data-testid="field-error">{errors[r.code]}</span>}
          </li>
        ))}
      </ul>
    </div>
  )
}
