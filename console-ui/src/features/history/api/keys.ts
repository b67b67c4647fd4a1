/** Query keys of the history area (under 'admin': every admin change refreshes them). */
export const historyKeys = {
  all: ['admin', 'history'] as const,
  changelog: (offset: number, limit: number) => [...historyKeys.all, 'changelog', { offset, limit }] as const,
  audit: (filters: AuditFilters) => [...historyKeys.all, 'audit', filters] as const,
  auditEntry: (id: number) => [...historyKeys.all, 'audit-entry', id] as const,
}

export interface AuditFilters {
  section: string
  element: string
  author: string
  offset: number
  limit: number
}
