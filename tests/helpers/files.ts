/**
 * Files API test helpers: the demo application with an empty storage, tokens for clients of
 * given roles, raw HTTP uploads (multipart built by hand, chunked streams) and downloads, and
 * the "nothing happened" oracle over the storage root and every entity table (catalogue 2.1).
 */
import { createHash } from 'node:crypto'
import http from 'node:http'
import { readdir, readFile, rm, stat, mkdir } from 'node:fs/promises'
import { join, relative } from 'node:path'
import db from '@adonisjs/lucid/services/db'
import engine from '#engine/services/engine'
import { localStorageRoot } from '#files/main'
import { resetDatabase } from '#tests/helpers/database'
import { applyDoc } from '#tests/helpers/engine'
import { accessToken, makeClient } from '#tests/helpers/resource_server'
import { demoDocument } from '#tests/unit/_fixtures'
import { writeSettings } from '#settings/property_resolver'

export const FILES = '/rest/files'

export interface FileResponse {
  status: number
  headers: http.IncomingHttpHeaders
  bytes: Buffer
  text: string
  body: any
}

/** A bearer token of a new client with these resource roles. */
export async function tokenWithRoles(resourceRoles: string[]) {
  return (await accessToken(await makeClient({ resourceRoles }))).token
}

/** Empty database + the demo application + an empty storage root; a full-access token. */
export async function filesSetup() {
  await resetDatabase()
  await applyDoc(await demoDocument())
  await clearStorage()
  return tokenWithRoles(['system-full-access'])
}

export async function clearStorage() {
  await rm(localStorageRoot(), { recursive: true, force: true })
  await mkdir(localStorageRoot(), { recursive: true })
}

function collect(response: http.IncomingMessage): Promise<FileResponse> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    response.on('data', (c: Buffer) => chunks.push(c))
    response.on('error', reject)
    response.on('end', () => {
      const bytes = Buffer.concat(chunks)
      const text = bytes.toString('utf8')
      let body: any = null
      try {
        body = text ? JSON.parse(text) : null
      } catch {}
      resolve({ status: response.statusCode ?? 0, headers: response.headers, bytes, text, body })
    })
  })
}

export interface RequestOptions {
  method?: string
  headers?: Record<string, string>
  /** Whole body, or chunks written one by one (chunked encoding when no content-length). */
  body?: Buffer | string | Iterable<Buffer> | AsyncIterable<Buffer>
  /** Another server than the test's own (a server process). */
  port?: number
}

/**
 * One request; the path is sent exactly as given. When the server answers before the body is
 * sent (a refused upload), writing stops and the answer is returned.
 */
export function request(path: string, options: RequestOptions = {}): Promise<FileResponse> {
  return new Promise((resolve, reject) => {
    let answered = false
    const agent = new http.Agent({ keepAlive: true })
    const req = http.request(
      {
        host: '127.0.0.1',
        port: options.port ?? Number(process.env.PORT),
        path,
        method: options.method ?? 'GET',
        headers: options.headers,
        // A connection per request (one whose upload was refused half-way must not be reused),
        // kept alive: with `Connection: close` the server would close it right after a refusal
        // while the body is still being sent, and the answer could be lost.
        agent,
      },
      (response) => {
        answered = true
        // Stop sending what the server no longer reads (it answered before the body ended).
        collect(response).then((r) => {
          req.destroy()
          agent.destroy()
          resolve(r)
        }, reject)
      }
    )
    req.on('error', (error) => {
      if (!answered) reject(error)
    })
    const body = options.body
    if (body === undefined || typeof body === 'string' || Buffer.isBuffer(body)) {
      // Node frames a DELETE body only with an explicit length.
      if (body !== undefined && !req.hasHeader('content-length'))
        req.setHeader('Content-Length', Buffer.byteLength(body))
      req.end(body)
      return
    }
    ;(async () => {
      for await (const chunk of body as AsyncIterable<Buffer>) {
        if (answered || req.destroyed) return
        if (!req.write(chunk)) await new Promise((r) => req.once('drain', r))
      }
      req.end()
    })().catch(() => {})
  })
}

export const auth = (token: string) => ({ Authorization: `Bearer ${token}` })

/** A multipart/form-data body with the given parts. */
export function multipart(
  parts: { name: string; filename?: string; contentType?: string; data: Buffer | string }[]
) {
  const boundary = `----mg${Math.random().toString(16).slice(2)}`
  const chunks: Buffer[] = []
  for (const part of parts) {
    const filename = part.filename === undefined ? '' : `; filename="${part.filename}"`
    const type = part.contentType ? `\r\nContent-Type: ${part.contentType}` : ''
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"${filename}${type}\r\n\r\n`
      ),
      Buffer.from(part.data),
      Buffer.from('\r\n')
    )
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`))
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` }
}

/** POST /rest/files with the raw body. */
export function uploadRaw(
  token: string,
  data: Buffer | string,
  query: Record<string, string> = {},
  contentType = 'application/octet-stream'
) {
  const qs = new URLSearchParams(query).toString()
  return request(`${FILES}${qs ? `?${qs}` : ''}`, {
    method: 'POST',
    headers: { ...auth(token), 'Content-Type': contentType },
    body: data,
  })
}

/** POST /rest/files with one `file` part. */
export function uploadPart(
  token: string,
  data: Buffer | string,
  filename: string,
  query: Record<string, string> = {},
  contentType = 'application/octet-stream'
) {
  const form = multipart([{ name: 'file', filename, contentType, data }])
  const qs = new URLSearchParams(query).toString()
  return request(`${FILES}${qs ? `?${qs}` : ''}`, {
    method: 'POST',
    headers: { ...auth(token), 'Content-Type': form.contentType },
    body: form.body,
  })
}

/** GET /rest/files?fileRef=<encoded ref>[&attachment=] */
export function download(
  token: string,
  fileRef: string,
  options: { attachment?: string; headers?: Record<string, string> } = {}
) {
  const query = new URLSearchParams({ fileRef })
  if (options.attachment !== undefined) query.set('attachment', options.attachment)
  return request(`${FILES}?${query}`, { headers: { ...auth(token), ...options.headers } })
}

/** Every file under the storage root: relative path, size, SHA-256 (sorted). */
export async function storageListing(root = localStorageRoot()) {
  const out: string[] = []
  const entries = await readdir(root, { recursive: true }).catch(() => [] as string[])
  for (const entry of entries.sort()) {
    const path = join(root, entry)
    const info = await stat(path).catch(() => null)
    if (!info?.isFile()) continue
    const digest = createHash('sha256')
      .update(await readFile(path))
      .digest('hex')
    out.push(`${relative(root, path)} ${info.size} ${digest}`)
  }
  return out
}

/** Every row of every entity table, ordered by id, hashed per table. */
export async function dataFingerprint() {
  const out: Record<string, string> = {}
  for (const entity of engine.model.entities.values()) {
    const rows = await db.from(entity.table).select('*').orderBy('id')
    out[entity.table] = createHash('sha256')
      .update(JSON.stringify(rows, (_k, v) => (v instanceof Date ? v.toISOString() : v)))
      .digest('hex')
  }
  return out
}

/** Oracle "nothing happened": the storage listing and the entity data. */
export async function snapshot() {
  return { storage: await storageListing(), data: await dataFingerprint() }
}

/** Runs `action` with a stored setting (as the console would write it), then removes it. */
export async function withProperty<T>(name: string, value: unknown, action: () => Promise<T>) {
  const write = async (v: unknown) => {
    await db.transaction((trx) => writeSettings(trx, { [name]: v }))
    await engine.properties.refresh(db.connection(), true)
  }
  await write(value)
  try {
    return await action()
  } finally {
    await write(null)
  }
}
