/*
 * Pure helpers of the API reference page: operations grouped by tag, a one-line description of
 * a JSON schema, and the URL of a "try it" request.
 */

export type Schema = Record<string, unknown>

export interface Parameter {
  name: string
  in: 'path' | 'query' | 'header'
  required?: boolean
  description?: string
  schema?: Schema
}

export interface Operation {
  tags?: string[]
  summary?: string
  operationId: string
  parameters?: Parameter[]
  requestBody?: { content: Record<string, { schema?: Schema }> }
  responses: Record<string, { description: string; content?: Record<string, { schema?: Schema }> }>
  deprecated?: boolean
}

export interface OpenApiDoc {
  openapi: string
  info: { title: string; version: string; description?: string }
  servers?: { url: string }[]
  tags?: { name: string; description?: string }[]
  paths: Record<string, Record<string, Operation>>
  components?: { schemas?: Record<string, Schema> }
}

export interface OperationEntry {
  method: string
  path: string
  operation: Operation
}

export interface TagGroup {
  tag: string
  description: string
  operations: OperationEntry[]
}

/** Operations grouped by their first tag, in the document's tag order; `query` filters. */
export function groupOperations(doc: OpenApiDoc, query = ''): TagGroup[] {
  const q = query.trim().toLowerCase()
  const groups = new Map<string, TagGroup>()
  for (const t of doc.tags ?? []) {
    groups.set(t.name, { tag: t.name, description: t.description ?? '', operations: [] })
  }
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      const tag = operation.tags?.[0] ?? 'Other'
      const text = `${method} ${path} ${operation.summary ?? ''} ${tag}`.toLowerCase()
      if (q && !text.includes(q)) continue
      if (!groups.has(tag)) groups.set(tag, { tag, description: '', operations: [] })
      groups.get(tag)!.operations.push({ method, path, operation })
    }
  }
  return [...groups.values()].filter((g) => g.operations.length > 0)
}

/** The component name of a `$ref` (`#/components/schemas/bookstore_Book` -> `bookstore_Book`). */
export const refName = (ref: string) => ref.slice(ref.lastIndexOf('/') + 1)

/** A short description of a schema: `bookstore_Book[]`, `string (uuid)`, `integer 1..5`. */
export function describeSchema(schema: Schema | undefined): string {
  if (!schema) return ''
  if (typeof schema.$ref === 'string') return refName(schema.$ref)
  if (Array.isArray(schema.oneOf)) return (schema.oneOf as Schema[]).map(describeSchema).join(' | ')
  if (schema.type === 'array') return `${describeSchema(schema.items as Schema)}[]`
  const parts: string[] = [typeof schema.type === 'string' ? schema.type : 'any']
  if (schema.format) parts.push(`(${String(schema.format)})`)
  if (Array.isArray(schema.enum)) parts.push(`one of ${(schema.enum as string[]).join(', ')}`)
  if (schema.minimum !== undefined || schema.maximum !== undefined) {
    parts.push(`${schema.minimum ?? ''}..${schema.maximum ?? ''}`)
  }
  if (schema.maxLength !== undefined) parts.push(`max ${String(schema.maxLength)} chars`)
  if (schema.pattern) parts.push(`pattern ${String(schema.pattern)}`)
  return parts.join(' ')
}

/**
 * The same-origin URL of a request: `prefix` (the server's path, `/rest`) + the path with its
 * parameters filled in (encoded) + the non-empty query parameters. Null while a path parameter
 * is missing.
 */
export function requestUrl(
  prefix: string,
  path: string,
  parameters: Parameter[],
  values: Record<string, string>
): string | null {
  let missing = false
  const filled = path.replace(/\{([^}]+)\}/g, (_m, name: string) => {
    const value = values[name] ?? ''
    if (!value) missing = true
    return encodeURIComponent(value)
  })
  if (missing) return null
  const query = new URLSearchParams()
  for (const p of parameters) {
    const value = values[p.name]
    if (p.in === 'query' && value) query.set(p.name, value)
  }
  const text = query.toString()
  return `${prefix}${filled}${text ? `?${text}` : ''}`
}

/** The path part of the document's server URL (`http://host/rest` -> `/rest`). */
export function serverPrefix(doc: OpenApiDoc): string {
  const url = doc.servers?.[0]?.url ?? '/rest'
  try {
    return new URL(url, 'http://localhost').pathname.replace(/\/$/, '')
  } catch {
    return '/rest'
  }
}
