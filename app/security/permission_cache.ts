/**
 * Compiled permissions per subject, cached per (subject, model version, roles version).
 *
 * The role catalogue (stored roles) is loaded once per roles version; a user's assignment is
 * read on the first request of that user in a generation; a client's roles travel in its token
 * subject. When the model or the roles version changes (this instance's import, or another
 * instance's change seen by the engine's watcher: NOTIFY on PostgreSQL, polling everywhere),
 * the next request starts a new generation and everything compiled before is dropped.
 */
import type { Database } from '@adonisjs/lucid/database'
import type { Model } from '#engine/metadata/model'
import type { Subject } from './subject.js'
import { loadResourceRoles, loadRowLevelRoles } from './roles_store.js'
import { compilePermissions, type RoleAssignment, type RoleCatalogue } from './compiler.js'
import type { PolicyIndex } from './policy_index.js'
import type { CallerValues } from './row_rules.js'
import { cacheStats } from '#operations/cache_stats'

export interface PermissionSource {
  db: Database
  model(): Model
  rolesVersion(): number
}

/** Bound on cached subjects per generation (oldest dropped first). */
const MAX_ENTRIES = 10_000
const ANONYMOUS_USERNAME = 'anonymous'

interface Generation {
  key: string
  model: Model
  catalogue: Promise<RoleCatalogue>
  entries: Map<string, Promise<PolicyIndex>>
  anonymousId?: Promise<string | null>
}

export class PermissionCache {
  #generation: Generation | null = null

  constructor(private source: PermissionSource) {}

  #current(): Generation {
    const model = this.source.model()
    const version = this.source.rolesVersion()
    const key = `${model.version}|${version}`
    if (this.#generation?.key !== key) {
      const catalogue = this.#loadCatalogue(version)
      // A failed load must not stick: the next request retries.
      catalogue.catch(() => {
        if (this.#generation?.catalogue === catalogue) this.#generation = null
      })
      this.#generation = { key, model, catalogue, entries: new Map() }
    }
    return this.#generation
  }

  async #loadCatalogue(version: number): Promise<RoleCatalogue> {
    const client = this.source.db.connection()
    const [resource, rowLevel] = await Promise.all([
      loadResourceRoles(client),
      loadRowLevelRoles(client),
    ])
    return {
      version,
      resource: new Map(resource.map((r) => [r.code, r])),
      rowLevel: new Map(rowLevel.map((r) => [r.code, r])),
    }
  }

  async #userAssignment(userId: string): Promise<RoleAssignment> {
    const client = this.source.db.connection()
    const codes = async (table: string) =>
      (await client.from(table).where('user_id', userId).select('role_code')).map(
        (r: { role_code: string }) => r.role_code
      )
    const [resourceRoles, rowLevelRoles] = await Promise.all([
      codes('mg_user_resource_roles'),
      codes('mg_user_row_level_roles'),
    ])
    return { resourceRoles, rowLevelRoles }
  }

  #anonymousId(generation: Generation): Promise<string | null> {
    generation.anonymousId ??= this.source.db
      .connection()
      .from('users')
      .where('username', ANONYMOUS_USERNAME)
      .select('id')
      .first()
      .then((row: { id: string } | null) => (row ? String(row.id) : null))
    return generation.anonymousId
  }

  /** What the subject's assignment and placeholder values are. */
  async #resolve(
    generation: Generation,
    subject: Subject
  ): Promise<{ assignment: RoleAssignment; caller: CallerValues }> {
    if (subject.kind === 'client') {
      return {
        assignment: { resourceRoles: subject.resourceRoles, rowLevelRoles: subject.rowLevelRoles },
        caller: { userId: null, username: null, clientId: subject.clientId },
      }
    }
    if (subject.kind === 'user') {
      return {
        assignment: await this.#userAssignment(subject.userId),
        caller: { userId: subject.userId, username: subject.username, clientId: subject.clientId },
      }
    }
    const id = await this.#anonymousId(generation)
    return {
      assignment: id ? await this.#userAssignment(id) : { resourceRoles: [], rowLevelRoles: [] },
      caller: { userId: id, username: ANONYMOUS_USERNAME, clientId: null },
    }
  }

  permissionsFor(subject: Subject): Promise<PolicyIndex> {
    const generation = this.#current()
    const key = subjectKey(subject)
    let entry = generation.entries.get(key)
    if (entry) cacheStats.permissions.hits++
    else {
      cacheStats.permissions.misses++
      entry = (async () => {
        const catalogue = await generation.catalogue
        const { assignment, caller } = await this.#resolve(generation, subject)
        return compilePermissions(generation.model, catalogue, assignment, caller)
      })()
      entry.catch(() => generation.entries.delete(key))
      if (generation.entries.size >= MAX_ENTRIES) {
        generation.entries.delete(generation.entries.keys().next().value!)
      }
      generation.entries.set(key, entry)
    }
    return entry
  }
}

/** Subjects with the same key have the same roles and placeholder values. */
function subjectKey(subject: Subject): string {
  if (subject.kind === 'user') return `u\u0000${subject.userId}\u0000${subject.clientId}`
  if (subject.kind === 'client') {
    const roles = `${subject.resourceRoles.join(',')}\u0000${subject.rowLevelRoles.join(',')}`
    return `c\u0000${subject.clientId}\u0000${roles}`
  }
  return 'anonymous'
}
