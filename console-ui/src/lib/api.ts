/*
 * The console's only door to the server. Every request goes through `request()` so that
 * authentication, JSON parsing and error mapping live in one place.
 *
 * Errors: the server answers non-2xx with `{error, details}` (design/architecture.md §4.7);
 * validation failures carry an array instead, OAuth endpoints use RFC 6749 bodies and a 401 may
 * have no body at all. ApiError keeps the raw body for those and exposes `error`/`details` when
 * the documented shape is present.
 */

import { getAccessToken, refresh } from './auth/session'

export interface ServerErrorBody {
  error: string
  details?: string | null
}

export class ApiError extends Error {
  /** HTTP status; 0 when the request never got a response (network failure, server down). */
  readonly status: number
  /** `error` of the server's `{error, details}` body, when present. */
  readonly error: string | undefined
  /** `details` of the server's `{error, details}` body, when present. */
  readonly details: string | undefined
  /** The parsed response body (JSON value, text, or undefined when empty). */
  readonly body: unknown

  constructor(status: number, body: unknown, fallbackMessage: string) {
    const shaped = isServerErrorBody(body) ? body : undefined
    const details = shaped?.details ?? undefined
    const message = shaped ? [shaped.error, details].filter(Boolean).join(': ') : fallbackMessage
    super(message)
    this.name = 'ApiError'
    this.status = status
    this.error = shaped?.error
    this.details = details
    this.body = body
  }
}

export function isServerErrorBody(value: unknown): value is ServerErrorBody {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false
  const record = value as Record<string, unknown>
  const details = record.details
  return (
    typeof record.error === 'string' &&
    (details === undefined || details === null || typeof details === 'string')
  )
}

/** Returns the current bearer token, or null when not logged in. */
export type TokenProvider = () => string | null

export interface ApiClientOptions {
  /** Injected for tests; defaults to the global fetch. */
  fetch?: typeof fetch
  /** Prefix for every path; '' means same origin (the console is served by the server). */
  baseUrl?: string
  /**
   * THE place where authentication is added: when this returns a token, every request carries
   * `Authorization: Bearer <token>`.
   */
  getAccessToken?: TokenProvider
  /** Called once on a 401: true when a new token was obtained and the request may be retried. */
  onUnauthorized?: () => Promise<boolean>
}

export interface RequestOptions {
  method?: string
  /** Serialized as JSON when present, unless `rawBody` is given. */
  body?: unknown
  /** Sent as it is, with `contentType` (e.g. a YAML document or a file). */
  rawBody?: BodyInit
  contentType?: string
  headers?: Record<string, string>
  signal?: AbortSignal
}

export interface ApiResponse<T> {
  data: T
  status: number
  headers: Headers
}

export interface ApiClient {
  request<T>(path: string, options?: RequestOptions): Promise<T>
  /** Like request, with the status and headers (ETag, Content-Range…). */
  send<T>(path: string, options?: RequestOptions): Promise<ApiResponse<T>>
  get<T>(path: string, signal?: AbortSignal): Promise<T>
}

export function createApiClient(options: ApiClientOptions = {}): ApiClient {
  const baseUrl = options.baseUrl ?? ''
  const getAccessToken = options.getAccessToken ?? (() => null)

  async function attempt(path: string, req: RequestOptions): Promise<Response> {
    const doFetch = options.fetch ?? globalThis.fetch
    const headers: Record<string, string> = { Accept: 'application/json', ...req.headers }
    const token = getAccessToken()
    if (token) headers.Authorization = `Bearer ${token}`
    let body: BodyInit | undefined
    if (req.rawBody !== undefined) {
      body = req.rawBody
      if (req.contentType) headers['Content-Type'] = req.contentType
    } else if (req.body !== undefined) {
      headers['Content-Type'] = 'application/json'
      body = JSON.stringify(req.body)
    }
    try {
      return await doFetch(baseUrl + path, {
        method: req.method ?? 'GET',
        headers,
        body,
        signal: req.signal,
      })
    } catch (cause) {
      if (cause instanceof DOMException && cause.name === 'AbortError') throw cause
      const reason = cause instanceof Error ? cause.message : String(cause)
      throw new ApiError(0, undefined, `Cannot reach the server (${reason})`)
    }
  }

  async function send<T>(path: string, req: RequestOptions = {}): Promise<ApiResponse<T>> {
    let response = await attempt(path, req)
    if (response.status === 401 && options.onUnauthorized && (await options.onUnauthorized()))
      response = await attempt(path, req)
    const body = await readBody(response)
    if (!response.ok) {
      const statusText = response.statusText ? ` ${response.statusText}` : ''
      throw new ApiError(response.status, body, `Request failed: HTTP ${response.status}${statusText}`)
    }
    return { data: body as T, status: response.status, headers: response.headers }
  }

  return {
    send,
    request: async <T>(path: string, req?: RequestOptions) => (await send<T>(path, req)).data,
    get: async <T>(path: string, signal?: AbortSignal) => (await send<T>(path, { signal })).data,
  }
}

/** JSON when the server says so (or the text parses), raw text otherwise, undefined when empty. */
async function readBody(response: Response): Promise<unknown> {
  const text = await response.text()
  if (text === '') return undefined
  try {
    return JSON.parse(text) as unknown
  } catch {
    return text
  }
}

/** The shared client used by feature `api/` modules: the signed-in admin's token. */
export const api = createApiClient({
  getAccessToken,
  onUnauthorized: refresh,
})
