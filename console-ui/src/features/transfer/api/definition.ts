/*
 * The application definition as a whole (README "Admin API"): GET /admin/api/definition (JSON,
 * or YAML with Accept: application/yaml), POST /definition/plan (a dry run) and
 * POST /definition/apply[?allowDataLoss=true], JSON or YAML bodies.
 */
import { useQuery } from '@tanstack/react-query'
import { api } from '../../../lib/api'
import { adminChange, adminGetVersioned, type ChangeResult } from '../../../lib/admin'
import { transferKeys } from './keys'

export type DocFormat = 'json' | 'yaml'

/** A document to import: its text as read (file or paste) and its format. */
export interface SourceDocument {
  name: string
  text: string
  format: DocFormat
}

export type Definition = Record<string, unknown>

const CONTENT_TYPE: Record<DocFormat, string> = { json: 'application/json', yaml: 'application/yaml' }

/** JSON for `.json` files and text starting with `{`, YAML otherwise. */
export function detectFormat(name: string, text: string): DocFormat {
  if (/\.ya?ml$/i.test(name)) return 'yaml'
  if (/\.json$/i.test(name)) return 'json'
  return /^\s*[{[]/.test(text) ? 'json' : 'yaml'
}

/** The stored definition as JSON, with the version it was read at. */
export function useDefinition() {
  return useQuery({
    queryKey: transferKeys.definition(),
    queryFn: ({ signal }) => adminGetVersioned<Definition>('definition', signal),
  })
}

/** The export as file text in the given format, and the version it was read at. */
export async function exportText(format: DocFormat): Promise<{ text: string; version: number | null }> {
  const response = await api.send<unknown>('/admin/api/definition', {
    headers: { Accept: format === 'yaml' ? 'application/yaml' : 'application/json' },
  })
  const version = Number(/"(\d+)"/.exec(response.headers.get('etag') ?? '')?.[1] ?? Number.NaN)
  const text =
    typeof response.data === 'string' ? response.data : `${JSON.stringify(response.data, null, 2)}\n`
  return { text, version: Number.isNaN(version) ? null : version }
}

/** Offers text as a file download (Blob + a link with `download`). */
export function saveFile(text: string, filename: string, type: string) {
  const url = URL.createObjectURL(new Blob([text], { type }))
  const link = document.createElement('a')
  link.href = url
  link.download = filename
  document.body.append(link)
  link.click()
  link.remove()
  window.setTimeout(() => URL.revokeObjectURL(url), 10_000)
}

export const planDocument = (doc: SourceDocument) =>
  adminChange<ChangeResult>('POST', 'definition/plan', undefined, {
    rawBody: doc.text,
    contentType: CONTENT_TYPE[doc.format],
  })

export const applyDocument = (doc: SourceDocument, options: { ifMatch: number; allowDataLoss: boolean }) =>
  adminChange<ChangeResult>('POST', 'definition/apply', undefined, {
    rawBody: doc.text,
    contentType: CONTENT_TYPE[doc.format],
    ifMatch: options.ifMatch,
    allowDataLoss: options.allowDataLoss,
  })
