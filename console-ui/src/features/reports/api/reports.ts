/*
 * Reports through the admin API (/admin/api/reports, app/reports/README.md "Admin API"): the
 * list, one definition (versioned), the REST flag, the band preview, runs that answer a
 * document, template files and the execution history.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { toast } from 'sonner'
import { adminChange, adminGet, adminGetVersioned, errorText } from '../../../lib/admin'
import { ApiError } from '../../../lib/api'
import { getAccessToken, refresh } from '../../../lib/auth/session'
import type { Execution, PreviewAnswer, ReportDefinition, ReportList, RunParameter } from './types'

/** Query keys of this area (under 'admin': every admin change invalidates them). */
export const reportsKeys = {
  all: ['admin', 'reports'] as const,
  list: () => [...reportsKeys.all, 'list'] as const,
  one: (id: string) => [...reportsKeys.all, 'one', id] as const,
  executions: (report: string) => [...reportsKeys.all, 'executions', report] as const,
}

export const reportPath = (id: string) => `reports/${encodeURIComponent(id)}`
export const templateFilePath = (id: string, code: string) => `${reportPath(id)}/templates/${encodeURIComponent(code)}/file`

export function useReports() {
  return useQuery({ queryKey: reportsKeys.list(), queryFn: ({ signal }) => adminGet<ReportList>('reports', signal) })
}

export function useReport(id: string | undefined) {
  return useQuery({
    queryKey: reportsKeys.one(id ?? ''),
    queryFn: ({ signal }) => adminGetVersioned<ReportDefinition>(reportPath(id!), signal),
    enabled: id !== undefined,
  })
}

export function useExecutions(report: string) {
  return useQuery({
    queryKey: reportsKeys.executions(report),
    queryFn: async ({ signal }) => {
      const qs = new URLSearchParams({ limit: '200', ...(report ? { report } : {}) })
      return (await adminGet<{ executions: Execution[] }>(`reports/executions?${qs}`, signal)).executions
    },
  })
}

/**
 * The REST flag of a report, switched at once in the list (optimistic); on an error the list
 * is put back and a toast says why.
 */
export function useRestToggle() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: ({ id, restAccess }: { id: string; restAccess: boolean }) => adminChange('PATCH', reportPath(id), { restAccess }),
    onMutate: async ({ id, restAccess }) => {
      await client.cancelQueries({ queryKey: reportsKeys.list() })
      const before = client.getQueryData<ReportList>(reportsKeys.list())
      if (before)
        client.setQueryData<ReportList>(reportsKeys.list(), {
          ...before,
          reports: before.reports.map((r) => (r.id === id ? { ...r, restAccess } : r)),
        })
      return { before }
    },
    onError: (error, { restAccess }, context) => {
      if (context?.before) client.setQueryData(reportsKeys.list(), context.before)
      toast.error(`The REST flag was not ${restAccess ? 'set' : 'cleared'}: ${errorText(error)}`)
    },
    onSuccess: (_, { restAccess }) => toast.success(restAccess ? 'Available through the REST API' : 'No longer available through the REST API'),
    onSettled: () => client.invalidateQueries({ queryKey: ['admin'] }),
  })
}

export interface PreviewBody {
  band: string
  parameters: RunParameter[]
  report?: ReportDefinition
}

export const previewBand = (id: string, body: PreviewBody) => adminChange<PreviewAnswer>('POST', `${reportPath(id)}/preview`, body)

/* ------------------------------------------------------------------ documents */

export interface Document {
  blob: Blob
  fileName: string
  contentType: string
}

/** `filename*=UTF-8''…` or `filename="…"` of a Content-Disposition (URL-encoded, `+` = space). */
export function fileNameFromDisposition(header: string | null, fallback = 'report'): string {
  if (!header) return fallback
  const star = /filename\*\s*=\s*(?:UTF-8|utf-8)?''([^;]+)/.exec(header)
  const plain = /filename\s*=\s*("([^"]*)"|[^;]+)/.exec(header)
  const raw = star?.[1] ?? plain?.[2] ?? plain?.[1]
  if (!raw) return fallback
  try {
    return decodeURIComponent(raw.trim().replace(/\+/g, ' '))
  } catch {
    return raw.trim()
  }
}

/** A request whose answer is a document (the JSON error body becomes an ApiError). */
export async function fetchDocument(path: string, init: { method?: string; body?: unknown } = {}): Promise<Document> {
  const attempt = () => {
    const token = getAccessToken()
    return fetch(path, {
      method: init.method ?? 'GET',
      headers: {
        Accept: '*/*',
        ...(token ? { Authorization: `Bearer ${token}` } : {}),
        ...(init.body !== undefined ? { 'Content-Type': 'application/json' } : {}),
      },
      body: init.body !== undefined ? JSON.stringify(init.body) : undefined,
    })
  }
  let response = await attempt()
  if (response.status === 401 && (await refresh())) response = await attempt()
  if (!response.ok) {
    const text = await response.text()
    let body: unknown = text
    try {
      body = JSON.parse(text)
    } catch {
      /* not JSON */
    }
    throw new ApiError(response.status, body, `Request failed: HTTP ${response.status}`)
  }
  return {
    blob: await response.blob(),
    fileName: fileNameFromDisposition(response.headers.get('Content-Disposition')),
    contentType: response.headers.get('Content-Type') ?? 'application/octet-stream',
  }
}

/** Hands a document to the browser as a download. */
export function saveDocument(doc: Document) {
  const url = URL.createObjectURL(doc.blob)
  const a = document.createElement('a')
  a.href = url
  a.download = doc.fileName
  a.rel = 'noopener'
  document.body.appendChild(a)
  a.click()
  a.remove()
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
}

export interface RunBody {
  template?: string
  attachment?: boolean
  parameters: RunParameter[]
}

export const runReport = (id: string, body: RunBody) => fetchDocument(`/admin/api/${reportPath(id)}/run`, { method: 'POST', body })

export const downloadTemplate = (id: string, code: string) => fetchDocument(`/admin/api/${templateFilePath(id, code)}`)

export const uploadTemplate = (id: string, code: string, file: File) =>
  adminChange('PUT', `${templateFilePath(id, code)}?fileName=${encodeURIComponent(file.name)}`, undefined, {
    rawBody: file,
    contentType: file.type || 'application/octet-stream',
  })

/** A file as `base64:...` (a template's `file` in a create). */
export async function fileAsBase64(file: Blob): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer())
  let binary = ''
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000))
  return `base64:${btoa(binary)}`
}

/**
 * The parameter a run error is about: the REST error names the alias in `details`
 * (`Parameter 'since' ...`); undefined when it names none of them.
 */
export function parameterOfError(error: unknown, aliases: string[]): string | undefined {
  if (!(error instanceof ApiError)) return undefined
  const text = `${error.details ?? ''}`
  const named = aliases.filter((a) => a && new RegExp(`(^|[^A-Za-z0-9_])${a.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}([^A-Za-z0-9_]|$)`).test(text))
  return named.sort((a, b) => b.length - a.length)[0]
}
