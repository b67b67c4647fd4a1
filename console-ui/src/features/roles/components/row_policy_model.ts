/*
 * A row-level policy as the editor holds it: the policy of the role (entity, type, actions,
 * filter) plus the way its filter is being edited (the visual builder or raw JSON text).
 */
import { pruneFilter, type Filter, type FilterNode } from '../../../components/filter/filter'
import type { RowLevelPolicy } from '../api/roles'

/** Placeholders a rule may compare with: the caller's values (app/security/row_rules.ts). */
export const PLACEHOLDERS = [':current_user_id', ':current_user_username', ':current_client_id']

export interface PolicyDraft {
  entity: string
  type: 'filter' | 'predicate'
  actions: string[]
  filter: unknown
  mode: 'builder' | 'json'
  /** The JSON text while in JSON mode (may not parse yet). */
  text: string
}

/** Whether the visual builder can show this filter faithfully. */
export function builderCompatible(filter: unknown): filter is Filter {
  if (filter === null || filter === undefined) return true
  if (typeof filter !== 'object' || Array.isArray(filter)) return false
  const keys = Object.keys(filter)
  if (keys.some((k) => k !== 'conditions')) return false
  const conditions = (filter as { conditions?: unknown }).conditions
  if (conditions === undefined || conditions === null) return true
  const node = (n: unknown): boolean => {
    if (!n || typeof n !== 'object' || Array.isArray(n)) return false
    const o = n as Record<string, unknown>
    if ('group' in o)
      return (
        typeof o.group === 'string' &&
        ['AND', 'OR'].includes(o.group) &&
        Array.isArray(o.conditions) &&
        Object.keys(o).every((k) => k === 'group' || k === 'conditions') &&
        o.conditions.every(node)
      )
    return (
      typeof o.property === 'string' &&
      typeof o.operator === 'string' &&
      Object.keys(o).every((k) => ['property', 'operator', 'value'].includes(k)) &&
      (o.value === undefined || o.value === null || typeof o.value !== 'object' || Array.isArray(o.value))
    )
  }
  return Array.isArray(conditions) && conditions.every(node)
}

export const asFilter = (filter: unknown): Filter =>
  builderCompatible(filter) && filter ? { conditions: ((filter as Filter).conditions ?? []) as FilterNode[] } : { conditions: [] }

export function draftOfPolicy(policy: RowLevelPolicy): PolicyDraft {
  const mode = builderCompatible(policy.filter) ? 'builder' : 'json'
  return {
    entity: policy.entity,
    type: policy.type,
    actions: policy.actions,
    filter: policy.filter,
    mode,
    text: JSON.stringify(policy.filter ?? { conditions: [] }, null, 2),
  }
}

export const newPolicy = (entity: string): PolicyDraft => ({
  entity,
  type: 'filter',
  actions: ['read'],
  filter: { conditions: [] },
  mode: 'builder',
  text: JSON.stringify({ conditions: [] }, null, 2),
})

/** The JSON text parsed, or the reason it does not parse. */
export function parseText(text: string): { value: unknown } | { error: string } {
  try {
    return { value: JSON.parse(text) }
  } catch (error) {
    return { error: `Not valid JSON: ${(error as Error).message}` }
  }
}

/** The policy as the server takes it (builder filters without empty groups). */
export function policyBody(draft: PolicyDraft): RowLevelPolicy {
  let filter: unknown = draft.filter
  if (draft.mode === 'json') {
    const parsed = parseText(draft.text)
    filter = 'value' in parsed ? parsed.value : draft.filter
  } else if (builderCompatible(filter)) filter = pruneFilter(asFilter(filter))
  const actions = draft.type === 'filter' ? ['read'] : draft.actions
  return { entity: draft.entity, type: draft.type, actions, filter }
}

/** Local problems that stop a save or a preview: JSON that does not parse. */
export function localProblems(drafts: PolicyDraft[]): Record<string, string> {
  const out: Record<string, string> = {}
  drafts.forEach((d, i) => {
    if (d.mode !== 'json') return
    const parsed = parseText(d.text)
    if ('error' in parsed) out[`policies[${i}].filter`] = parsed.error
  })
  return out
}
