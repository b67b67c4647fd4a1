/**
 * The security subsystem's door for code outside app/security: a subject's compiled
 * permissions (app/security/README.md), cached per subject, model version and roles version.
 */
import engine from '#engine/services/engine'
import type { Subject } from './subject.js'
import { PermissionCache } from './permission_cache.js'
import type { Permissions } from './policy_index.js'

export type { Subject } from './subject.js'
export { ANONYMOUS } from './subject.js'
export type { AttributeLevel, EntityOperation, Permissions, RowRule } from './policy_index.js'
export { FULL_ACCESS } from './policy_index.js'
export { describePermissions } from './describe.js'
export { inspectPermissions, permissionsWithDraft, resolveSubject } from './inspect.js'
export type { InspectTarget, InspectedSubject, SubjectInfo } from './inspect.js'
export { previewRows, type RowPreview } from './row_preview.js'

let cache: PermissionCache | null = null

/**
 * Drops every compiled permission. Versions only grow in a running deployment, so this is for
 * tests that wipe the database (its version counters restart, and an entry cached under the
 * same versions would otherwise outlive the wipe).
 */
export function clearPermissionCache() {
  cache = null
}

/** The compiled permissions of `subject` (cached per subject, model and roles version). */
export function permissionsFor(subject: Subject): Promise<Permissions> {
  cache ??= new PermissionCache({
    db: engine.db,
    model: () => engine.model,
    rolesVersion: () => engine.rolesVersion,
  })
  return cache.permissionsFor(subject)
}
