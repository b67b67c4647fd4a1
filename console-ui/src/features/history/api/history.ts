/*
 * The schema changelog (GET /admin/api/changelog) and the audit trail (GET /admin/api/audit,
 * /audit/{id}): README "Admin API", "Settings, translations and history".
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { adminGet } from '../../../lib/admin'
import { historyKeys, type AuditFilters } from './keys'

export interface Paged<T> {
  total: number
  entries: T[]
}

export interface ChangelogEntry {
  id: number
  modelVersion: number
  operation: string
  target: string
  sql: string
  source: string
  appliedAt: string
}

export interface AuditElement {
  /** The document key: entities, enums, fetchPlans, resourceRoles, users, clients, settings… */
  section: string
  element: string
  change: 'created' | 'changed' | 'deleted'
  before?: unknown
  after?: unknown
}

export interface AuditEntry {
  id: number
  at: string
  author: { kind: 'user' | 'client' | 'system'; name: string }
  source: string
  definitionVersion: number
  changes: string[]
  elements: AuditElement[]
}

export function useChangelog(offset: number, limit: number) {
  return useQuery({
    queryKey: historyKeys.changelog(offset, limit),
    queryFn: ({ signal }) => adminGet<Paged<ChangelogEntry>>(`changelog?offset=${offset}&limit=${limit}`, signal),
    placeholderData: keepPreviousData,
  })
}

export function useAudit(filters: AuditFilters) {
  const query = new URLSearchParams({ offset: String(filters.offset), limit: String(filters.limit) })
  if (filters.section) query.set('section', filters.section)
  if (filters.element) query.set('element', filters.element)
  if (filters.author) query.set('author', filters.author)
  return useQuery({
    queryKey: historyKeys.audit(filters),
    queryFn: ({ signal }) => adminGet<Paged<AuditEntry>>(`audit?${query}`, signal),
    placeholderData: keepPreviousData,
  })
}

/** One entry with each element's before/after (fetched when it is expanded). */
export function useAuditEntry(id: number, enabled: boolean) {
  return useQuery({
    queryKey: historyKeys.auditEntry(id),
    queryFn: ({ signal }) => adminGet<AuditEntry>(`audit/${id}`, signal),
    enabled,
    staleTime: Infinity,
  })
}
