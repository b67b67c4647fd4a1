/**
 * Resource permissions of a subject: THE hook the security issue (issue 5) fills in. Until then
 * everyone may read every entity and view every attribute.
 *
 * Callers: the metadata API (an entity the subject cannot read is absent from the metadata, an
 * attribute it cannot view is absent from entity and fetch-plan descriptions). The metadata API
 * caches its documents per model version, locale and `policyKey`: whatever `canRead`/`canView`
 * depend on must be part of that key.
 */
import type { Subject } from './subject.js'

/** Whether `subject` may read instances of `entity` (upstream: entity READ permission). */
export function canRead(_subject: Subject, _entity: string): boolean {
  return true
}

/** Whether `subject` may view `entity.attribute` (upstream: attribute VIEW or MODIFY). */
export function canView(_subject: Subject, _entity: string, _attribute: string): boolean {
  return true
}

/**
 * Identifies the subject's effective read/view permissions: two subjects with the same key get
 * the same answers from canRead/canView (e.g. a hash of the resource roles and the security
 * version). Constant while everything is permitted.
 */
export function policyKey(_subject: Subject): string {
  return 'all'
}

export type EntityOperation = 'create' | 'read' | 'update' | 'delete'

/** Whether `subject` may perform `operation` on `entity` (upstream: entity policies). */
export function canDo(subject: Subject, entity: string, operation: EntityOperation): boolean {
  return operation === 'read' ? canRead(subject, entity) : true
}

/** Whether `subject` may change `entity.attribute` (upstream: attribute MODIFY). */
export function canModify(_subject: Subject, _entity: string, _attribute: string): boolean {
  return true
}
