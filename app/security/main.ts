/**
 * The security subsystem's door for code outside app/security: a subject's compiled
 * permissions. (Issue 5 in progress: the real compiler replaces the allow-all stub below.)
 */
import type { Subject } from './subject.js'

export type { Subject } from './subject.js'
export { ANONYMOUS } from './subject.js'

export type EntityOperation = 'create' | 'read' | 'update' | 'delete'

/** A subject's effective permissions, compiled once and cached (see README). */
export interface Permissions {
  /** Entity policy check (upstream: entity create/read/update/delete). */
  canDo(entity: string, operation: EntityOperation): boolean
  /** Specific policy (`rest.enabled`, `rest.fileUpload.enabled`, ...). */
  specific(name: string): boolean
}

const ALLOW_ALL: Permissions = { canDo: () => true, specific: () => true }

/** The compiled permissions of `subject` (cached per subject, model and roles version). */
export async function permissionsFor(_subject: Subject): Promise<Permissions> {
  return ALLOW_ALL
}
