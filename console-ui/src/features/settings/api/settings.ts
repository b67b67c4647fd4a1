/*
 * svc.* properties over the admin API (README "Admin API": settings): the list with each value's
 * source and fallback, PUT {value} to store one, DELETE to go back to the fallback, and the URL
 * tester (GET/POST /admin/api/url-test).
 */
import { useQuery } from '@tanstack/react-query'
import { adminChange, adminGetVersioned, type ChangeResult } from '../../../lib/admin'
import { api } from '../../../lib/api'
import { settingsKeys } from './keys'

export type SettingType = 'string' | 'boolean' | 'int' | 'list'
export type SettingValue = string | number | boolean | string[]
export type SettingSource = 'default' | 'file' | 'env' | 'database'

export interface Setting {
  name: string
  type: SettingType
  description?: string
  default: SettingValue
  value: SettingValue
  source: SettingSource
  stored: unknown
  /** What applies once the stored value is removed. */
  fallback?: { value: SettingValue; source: SettingSource }
}

export interface SettingsData {
  settings: Setting[]
  /** The definition version the list was read at (If-Match of a change). */
  version: number | null
}

export function useSettings() {
  return useQuery({
    queryKey: settingsKeys.list(),
    queryFn: async ({ signal }): Promise<SettingsData> => {
      const { data, version } = await adminGetVersioned<{ settings: Setting[] }>('settings', signal)
      return { settings: data.settings, version }
    },
  })
}

const settingPath = (name: string) => `settings/${encodeURIComponent(name)}`

export type SettingChange = ChangeResult & { setting?: Setting }

export const storeSetting = (name: string, value: SettingValue, ifMatch?: number | null) =>
  adminChange<SettingChange>('PUT', settingPath(name), { value }, { ifMatch: ifMatch ?? undefined })

export const removeSetting = (name: string, ifMatch?: number | null) =>
  adminChange<SettingChange>('DELETE', settingPath(name), undefined, { ifMatch: ifMatch ?? undefined })

/** The pattern lists of the resource server (app/oauth/README.md). */
export const ANONYMOUS = 'svc.resource-server.anonymous-url-patterns'
export const LEGACY_ANONYMOUS = 'svc.rest.anonymous-url-patterns'
export const AUTHENTICATED = 'svc.resource-server.authenticated-url-patterns'
export const PATTERN_PROPERTIES = [ANONYMOUS, LEGACY_ANONYMOUS, AUTHENTICATED] as const
export type PatternProperty = (typeof PATTERN_PROPERTIES)[number]

export interface MatchedPattern {
  pattern: string
  property: PatternProperty
}

export interface UrlTestResult {
  method: string
  path: string
  normalizedPath: string | null
  canonical: boolean
  kind: 'anonymous' | 'authenticated' | 'open' | 'rejected'
  anonymous: MatchedPattern | null
  authenticated: MatchedPattern | null
  tokenRequired: boolean
  runsAs: { user: 'anonymous'; resourceRoles: string[]; rowLevelRoles: string[] } | null
  rejected: { status: number; reason: string } | null
  route: string | null
  candidate: boolean
  patterns: Record<PatternProperty, string[]>
}

export interface UrlTestRequest {
  method: string
  path: string
  /** Unsaved lists to test instead of the stored ones. */
  patterns?: Partial<Record<PatternProperty, string[]>>
}

/** POST /admin/api/url-test: the server's own decision for this request. */
export const testUrl = (request: UrlTestRequest) =>
  api.request<UrlTestResult>('/admin/api/url-test', { method: 'POST', body: request })
