/*
 * The admin API (/admin/api, README "Admin API"): every answer carries the definition version as
 * ETag. The console remembers the newest one it has seen (shown in the header) and sends the
 * version an editor was opened at as If-Match, so a concurrent change is a clear 412, never a
 * silent overwrite.
 */
import { useSyncExternalStore } from 'react'
import { api, ApiError, type RequestOptions } from './api'

export interface Problem {
  path: string
  message: string
}

export interface Risk {
  message: string
  overridable: boolean
  table?: string
  rows?: number
}

export interface PlanStep {
  kind: string
  target: string
  description: string
  sql: string[]
}

/** The answer of every change (and of a dry run): README "Answer of a change". */
export interface ChangeResult {
  status: 'applied' | 'unchanged' | 'dry-run'
  changes: string[]
  steps: PlanStep[]
  risks: Risk[]
  definitionVersion: number
  modelVersion: number
  auditId?: number
  secrets?: { clientId: string; secret: string }[]
  [extra: string]: unknown
}

export interface ChangeOptions {
  /** The definition version the edited data was read at (If-Match). */
  ifMatch?: number
  dryRun?: boolean
  allowDataLoss?: boolean
}

let version: number | null = null
const listeners = new Set<() => void>()

function noteVersion(headers: Headers) {
  const match = /"(\d+)"/.exec(headers.get('etag') ?? '')
  if (!match) return
  const next = Number(match[1])
  if (next === version) return
  version = next
  for (const listener of listeners) listener()
}

/** The newest definition version seen in any admin answer (null before the first). */
export function useDefinitionVersion(): number | null {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    () => version,
    () => version
  )
}

export const currentDefinitionVersion = () => version

const url = (path: string) => (path.startsWith('/') ? path : `/admin/api/${path}`)

/** GET under /admin/api; records the version. */
export async function adminGet<T>(path: string, signal?: AbortSignal): Promise<T> {
  const response = await api.send<T>(url(path), { signal })
  noteVersion(response.headers)
  return response.data
}

/** GET that also returns the version the data was read at (for editors). */
export async function adminGetVersioned<T>(
  path: string,
  signal?: AbortSignal
): Promise<{ data: T; version: number | null }> {
  const response = await api.send<T>(url(path), { signal })
  noteVersion(response.headers)
  return { data: response.data, version }
}

/** A change (POST/PUT/PATCH/DELETE) with the dryRun / allowDataLoss / If-Match options. */
export async function adminChange<T = ChangeResult>(
  method: string,
  path: string,
  body?: unknown,
  options: ChangeOptions & Pick<RequestOptions, 'rawBody' | 'contentType'> = {}
): Promise<T> {
  const query = new URLSearchParams()
  if (options.dryRun) query.set('dryRun', 'true')
  if (options.allowDataLoss) query.set('allowDataLoss', 'true')
  const qs = query.size ? `${path.includes('?') ? '&' : '?'}${query}` : ''
  const headers: Record<string, string> = {}
  if (options.ifMatch !== undefined) headers['If-Match'] = `"${options.ifMatch}"`
  try {
    const response = await api.send<T>(url(path) + qs, {
      method,
      body,
      rawBody: options.rawBody,
      contentType: options.contentType,
      headers,
    })
    noteVersion(response.headers)
    return response.data
  } catch (error) {
    if (error instanceof ApiError && error.status === 412) version = null
    throw error
  }
}

/** `problems` of a 422 answer (also `risks` of a 409 Data loss), or none. */
export function problemsOf(error: unknown): Problem[] {
  if (!(error instanceof ApiError)) return []
  const body = error.body as { problems?: Problem[] } | undefined
  return Array.isArray(body?.problems) ? body.problems : []
}

export function risksOf(error: unknown): Risk[] {
  if (!(error instanceof ApiError) || error.status !== 409) return []
  const body = error.body as { risks?: Risk[] } | undefined
  return Array.isArray(body?.risks) ? body.risks : []
}

/**
 * Field errors of a form: problems whose path starts with `prefix` ('$' for the body itself),
 * keyed by the rest of the path without the leading dot (`attributes[0].type`, `email`).
 * Problems that point nowhere in the form are returned under ''.
 */
export function fieldErrors(error: unknown, prefix = '$'): Record<string, string> {
  const out: Record<string, string> = {}
  for (const problem of problemsOf(error)) {
    let key = ''
    if (problem.path === prefix) key = ''
    else if (problem.path.startsWith(prefix + '.')) key = problem.path.slice(prefix.length + 1)
    else if (problem.path.startsWith(prefix + '[')) key = problem.path.slice(prefix.length)
    else key = ''
    out[key] = out[key] ? `${out[key]}; ${problem.message}` : problem.message
  }
  return out
}

/** One line for a toast: the server's error and details. */
export function errorText(error: unknown): string {
  if (error instanceof ApiError) {
    const problems = problemsOf(error)
    if (problems.length === 1) return `${error.details ?? error.message} — ${problems[0]?.message}`
    return error.details ?? error.message
  }
  return error instanceof Error ? error.message : String(error)
}
