/**
 * The OpenAPI wing's door (app/openapi/README.md): cached documents rendered as JSON or YAML
 * for a server URL. The detailed document is cached per model version (`model.derive`, dropped
 * with the next version) and permissions key, and rebuilt when the stored named queries (the
 * `definition` version, bumped by every change of them) or the service catalogue (its
 * generation) move;
 * rendered texts per base URL (a few at most).
 */
import { stringify } from 'yaml'
import type { QueryClientContract } from '@adonisjs/lucid/types/database'
import type { Model } from '#engine/main'
import { readVersion } from '#changes/versions'
import { loadQueries } from '#engine/queries/store'
import { currentCatalogue } from '#services/catalogue'
import type { Permissions } from '#security/main'
import { forServer, type OpenApiDocument } from './builder.js'
import { buildDetailed, buildGeneral } from './documents.js'
import { buildAdmin } from './admin.js'

export type { OpenApiDocument } from './builder.js'
export { DETAILED_SECTIONS, GENERAL_AREAS, type DetailedSection } from './documents.js'
export { ADMIN_ROUTES } from './admin.js'

export type DocFormat = 'json' | 'yaml'

/** A built document and its rendered texts (per base URL and format). */
export class Cached {
  #texts = new Map<string, string>()
  constructor(
    readonly doc: OpenApiDocument,
    readonly prefix: string
  ) {}

  render(base: string, format: DocFormat): string {
    const key = `${format}\u0000${base}`
    let text = this.#texts.get(key)
    if (text === undefined) {
      const served = forServer(this.doc, base, this.prefix)
      text =
        format === 'json'
          ? JSON.stringify(served, null, 2)
          : stringify(served, { aliasDuplicateObjects: false })
      // Base URLs come from the Host header when none is configured: keep a few only.
      if (this.#texts.size >= 16) this.#texts.clear()
      this.#texts.set(key, text)
    }
    return text
  }
}

let general: Cached | null = null
let admin: Cached | null = null

export function generalDocument(): Cached {
  general ??= new Cached(buildGeneral(), '/rest')
  return general
}

interface DetailedSlot {
  stamp?: string
  doc?: Promise<Cached>
}

/**
 * The detailed document for `permissions` (one slot per model version and permissions key).
 * `client` reads the definition version (one indexed row) and, when it moved, the queries.
 */
export async function detailedDocument(
  model: Model,
  permissions: Permissions,
  client: QueryClientContract
): Promise<Cached> {
  const slot = model.derive<DetailedSlot>(`openapi:detailed:${permissions.key}`, () => ({}))
  const [definition, catalogue] = await Promise.all([
    readVersion(client, 'definition'),
    currentCatalogue(),
  ])
  const stamp = `${definition}:${catalogue.generation}`
  if (slot.stamp !== stamp || !slot.doc) {
    slot.stamp = stamp
    slot.doc = Promise.all([loadQueries(client), catalogue.services]).then(
      ([queries, entries]) =>
        new Cached(
          buildDetailed(model, permissions, { services: [...entries.values()], queries }),
          '/rest'
        )
    )
    // A failed build is not kept: the next request tries again.
    slot.doc.catch(() => {
      if (slot.stamp === stamp) slot.stamp = undefined
    })
  }
  return slot.doc
}

export function adminDocument(): Cached {
  admin ??= new Cached(buildAdmin(), '/admin/api')
  return admin
}

export const CONTENT_TYPES: Record<DocFormat, string> = {
  json: 'application/json; charset=utf-8',
  yaml: 'application/yaml; charset=utf-8',
}
