/*
 * The effective permissions of one subject: entity by entity (create/read/update/delete) with
 * the roles behind each operation, attribute by attribute when an entity is opened, specific
 * policies, and the row-level rules that apply.
 */
import { Fragment, useDeferredValue, useMemo, useState } from 'react'
import { Link } from 'react-router'
import { Panel } from '../../../components/ui/panel'
import { useModelEntities } from '../../../lib/model'
import { filterableAttributes } from '../../../components/filter/filter'
import { OPERATIONS, SPECIFIC_POLICIES, type EffectivePermissions, type Operation, type RoleGrant } from '../api/roles'
import { RoleChip, roleHref } from './role_parts'
import { filterText } from './filter_text'

const grantKey = (g: RoleGrant) => [g.role, ...g.via].join('>')
const unique = (grants: RoleGrant[]) => [...new Map(grants.map((g) => [grantKey(g), g])).values()]
const who = (grants: RoleGrant[]) => grants.map((g) => [g.role, ...g.via].join(' → ')).join(', ')

function Grants({ grants }: { grants: RoleGrant[] }) {
  return (
    <span className="role-chips">
      {unique(grants).map((g) => (
        <RoleChip key={grantKey(g)} grant={g} />
      ))}
    </span>
  )
}

const PAGE = 100

export function EntityGrants({ data }: { data: EffectivePermissions }) {
  const model = useModelEntities()
  const [filter, setFilter] = useState('')
  const [showAll, setShowAll] = useState(false)
  const [limit, setLimit] = useState(PAGE)
  const [open, setOpen] = useState<string | null>(null)
  const q = useDeferredValue(filter.trim().toLowerCase())

  const byEntity = useMemo(() => {
    const map = new Map<string, { ops: Map<Operation, RoleGrant[]>; attrs: EffectivePermissions['grants']['attributes'] }>()
    const of = (e: string) => map.get(e) ?? map.set(e, { ops: new Map(), attrs: [] }).get(e)!
    for (const g of data.grants.entities) of(g.entity).ops.set(g.operation, g.roles)
    for (const a of data.grants.attributes) of(a.entity).attrs.push(a)
    return map
  }, [data])
  const entities = (model.data ?? []).slice().sort((a, b) => a.name.localeCompare(b.name))
  const rows = entities.filter((e) => (showAll || byEntity.has(e.name)) && (!q || e.name.toLowerCase().includes(q)))
  const granted = entities.filter((e) => byEntity.has(e.name)).length

  return (
    <Panel title="Entities and attributes" testId="entity-grants">
      <div className="toolbar">
        <input className="input" type="search" placeholder="Filter entities…" aria-label="Filter entities" value={filter} onChange={(e) => setFilter(e.target.value)} />
        <label className="check">
          <input type="checkbox" checked={showAll} onChange={(e) => setShowAll(e.target.checked)} />
          Also entities without access
        </label>
        <span className="muted">
          Access to {granted} of {entities.length} entities
        </span>
      </div>
      {rows.length === 0 ? (
        <p className="empty">{granted === 0 ? 'No access to any entity.' : 'No entity matches.'}</p>
      ) : (
        <div className="table-wrap">
          <table className="table permissions-table">
            <thead>
              <tr>
                <th scope="col">Entity</th>
                {OPERATIONS.map((op) => (
                  <th scope="col" key={op} className="matrix__head">
                    {op[0]!.toUpperCase() + op.slice(1)}
                  </th>
                ))}
                <th scope="col">Attributes</th>
                <th scope="col">Granted by</th>
              </tr>
            </thead>
            <tbody>
              {rows.slice(0, limit).map((entity) => {
                const grants = byEntity.get(entity.name)
                const attrs = grants?.attrs ?? []
                const modify = attrs.filter((a) => a.level === 'MODIFY').length
                const isOpen = open === entity.name
                const all = filterableAttributes(entity)
                return (
                  <Fragment key={entity.name}>
                    <tr data-testid={`perm-row-${entity.name}`}>
                      <th scope="row">
                        <button type="button" className="matrix__expand" aria-expanded={isOpen} aria-label={`Attributes of ${entity.name}`} onClick={() => setOpen(isOpen ? null : entity.name)} data-testid={`perm-expand-${entity.name}`}>
                          {isOpen ? '▾' : '▸'}
                        </button>
                        <span className="mono">{entity.name}</span>
                      </th>
                      {OPERATIONS.map((op) => {
                        const by = grants?.ops.get(op)
                        return (
                          <td key={op} className="matrix__cell" data-testid={`perm-${entity.name}-${op}`} data-granted={by ? 'true' : 'false'}>
                            {by ? (
                              <span className="badge badge--ok" title={`granted by ${who(by)}`}>
                                ✓<span className="roles-sr-only"> granted by {who(by)}</span>
                              </span>
                            ) : (
                              <span className="muted" title="not granted">
                                —<span className="roles-sr-only">not granted</span>
                              </span>
                            )}
                          </td>
                        )
                      })}
                      <td className="muted">
                        {attrs.length}/{all.length} visible{modify ? `, ${modify} modifiable` : ''}
                      </td>
                      <td data-testid={`perm-by-${entity.name}`}>
                        <Grants grants={[...(grants?.ops.values() ?? [])].flat()} />
                      </td>
                    </tr>
                    {isOpen && (
                      <tr className="permissions__detail">
                        <td colSpan={7}>
                          <table className="table permissions__attrs" data-testid={`perm-attrs-${entity.name}`}>
                            <caption className="roles-sr-only">Attributes of {entity.name}</caption>
                            <thead>
                              <tr>
                                <th scope="col">Attribute</th>
                                <th scope="col">Access</th>
                                <th scope="col">Granted by</th>
                              </tr>
                            </thead>
                            <tbody>
                              {all.map((attribute) => {
                                const a = attrs.find((x) => x.attribute === attribute.name)
                                return (
                                  <tr key={attribute.name} data-testid={`perm-attr-${entity.name}.${attribute.name}`}>
                                    <th scope="row" className="mono">
                                      {attribute.name}
                                    </th>
                                    <td data-testid="perm-attr-level">
                                      {a ? (
                                        <span className={a.level === 'MODIFY' ? 'badge badge--ok' : 'badge badge--accent'}>{a.level === 'MODIFY' ? 'view + modify' : 'view only'}</span>
                                      ) : attribute.name === 'id' ? (
                                        <span className="badge badge--outline" title="Every answer carries the id; filtering or sorting by it needs View">
                                          always in answers
                                        </span>
                                      ) : (
                                        <span className="badge badge--bad">hidden</span>
                                      )}
                                    </td>
                                    <td>{a && <Grants grants={a.roles} />}</td>
                                  </tr>
                                )
                              })}
                            </tbody>
                          </table>
                        </td>
                      </tr>
                    )}
                  </Fragment>
                )
              })}
            </tbody>
          </table>
        </div>
      )}
      {rows.length > limit && (
        <button type="button" className="btn btn--small permissions__more" onClick={() => setLimit(limit + PAGE * 5)}>
          Show more ({rows.length - limit} left)
        </button>
      )}
    </Panel>
  )
}

export function SpecificGrants({ data }: { data: EffectivePermissions }) {
  return (
    <Panel title="Specific policies" testId="specific-grants">
      <ul className="permissions__specifics">
        {SPECIFIC_POLICIES.filter((p) => p.name !== '*').map((p) => {
          const grant = data.grants.specifics.find((s) => s.name === p.name)
          return (
            <li key={p.name} data-testid={`perm-specific-${p.name}`} data-granted={grant ? 'true' : 'false'}>
              {grant ? <span className="badge badge--ok">granted</span> : <span className="badge">not granted</span>} {p.label} <code>{p.name}</code>
              {grant && (
                <div>
                  <Grants grants={grant.roles} />
                </div>
              )}
            </li>
          )
        })}
      </ul>
    </Panel>
  )
}

export function RowRules({ data }: { data: EffectivePermissions }) {
  return (
    <Panel title="Row-level rules" testId="row-rules">
      {data.rowLevel.length === 0 ? (
        <p className="muted">No row-level rule applies: every row of a readable entity is visible.</p>
      ) : (
        <div className="table-wrap">
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Entity</th>
                <th scope="col">Action</th>
                <th scope="col">Rule</th>
                <th scope="col">Role</th>
              </tr>
            </thead>
            <tbody>
              {data.rowLevel.map((rule, i) => (
                <tr key={i} data-testid={`row-rule-${rule.entity}`}>
                  <th scope="row" className="mono">
                    {rule.entity}
                  </th>
                  <td>{rule.action}</td>
                  <td>
                    <code>{filterText(rule.filter)}</code>
                    {rule.invalid && <div className="badge badge--bad">does not parse any more: no row passes</div>}
                    {rule.missingValues.length > 0 && (
                      <div className="badge badge--warn">no value for {rule.missingValues.join(', ')}: those conditions match nothing</div>
                    )}
                  </td>
                  <td>
                    <Link className="role-chip" to={roleHref(rule.role, 'rowLevel')}>
                      {rule.role}
                    </Link>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Panel>
  )
}
