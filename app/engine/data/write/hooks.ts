/**
 * Entity lifecycle hooks (README "Developer guide"): TypeScript functions an application
 * registers per entity name (start/hooks.ts) and the write pipeline runs inside the write
 * transaction, for every create, update and delete through DataManager (the REST entities API,
 * services, custom controllers), nested composition rows and cascaded deletions included:
 *
 * - `beforeSave`: before a row is merged; may change `values` (the entity JSON as sent, after
 *   earlier hooks) or refuse with `refuse(message, attribute?)` (400 `Validation failed`).
 * - `afterSave`: after the row and its collections are written; `load()` reads it as the
 *   caller sees it inside the transaction.
 * - `beforeDelete`: may refuse; `afterDelete`: after the row (and what goes with it) is gone.
 *
 * Anything a hook throws rolls the whole write back (a DataError leaves with its status and
 * body, anything else is a 500). The engine knows no HTTP: hooks get the subject and values.
 */
import type { Subject } from '#security/subject'
import type { EntityMeta } from '../../metadata/model.js'
import type { EntityJson } from '../data_manager.js'
import { load } from '../read/main.js'
import { formatId } from '../read/values.js'
import type { Id, Row, WriteState } from './state.js'
import { joinPath, validationFailed, violation } from './validate.js'

interface HookEvent {
  /** The entity name (`bookstore_Book`). */
  entityName: string
  /** Who writes: a user, a client or anonymous (app/security/subject.ts). */
  subject: Subject
  /** The row's id as entity JSON shows it; undefined for a row the database numbers itself. */
  id: string | undefined
  /** Reads the row as the caller sees it, inside the transaction (`_base` unless given). */
  load(fetchPlan?: string): Promise<EntityJson>
}

export interface BeforeSaveEvent extends Omit<HookEvent, 'load'> {
  isNew: boolean
  /** The entity JSON being saved (only the attributes the request sends): change it freely. */
  values: Record<string, unknown>
  /** Refuses the write: 400 `Validation failed` with one violation (at `attribute`, if given). */
  refuse(message: string, attribute?: string): never
}

export interface AfterSaveEvent extends HookEvent {
  isNew: boolean
  /** The entity JSON that was saved (after the beforeSave hooks). */
  values: Readonly<Record<string, unknown>>
  id: string
}

export interface BeforeDeleteEvent extends HookEvent {
  id: string
  refuse(message: string): never
}

export interface AfterDeleteEvent extends Omit<HookEvent, 'load'> {
  id: string
}

type MaybePromise = void | Promise<void>

export interface EntityHooks {
  beforeSave?(event: BeforeSaveEvent): MaybePromise
  afterSave?(event: AfterSaveEvent): MaybePromise
  beforeDelete?(event: BeforeDeleteEvent): MaybePromise
  afterDelete?(event: AfterDeleteEvent): MaybePromise
}

const registry = new Map<string, EntityHooks[]>()

/**
 * Registers hooks of one entity (several registrations run in order). Returns a function that
 * removes them again (tests).
 */
export function registerEntityHooks(entityName: string, hooks: EntityHooks): () => void {
  const list = registry.get(entityName) ?? []
  list.push(hooks)
  registry.set(entityName, list)
  return () => {
    const now = registry.get(entityName) ?? []
    const left = now.filter((h) => h !== hooks)
    if (left.length) registry.set(entityName, left)
    else registry.delete(entityName)
  }
}

/** Whether `entity` has hooks of `kind` (the pipeline skips all work otherwise). */
export function hasHooks(entity: EntityMeta, kind: keyof EntityHooks): boolean {
  return registry.get(entity.name)?.some((h) => h[kind] !== undefined) ?? false
}

function hooksOf<K extends keyof EntityHooks>(entity: EntityMeta, kind: K) {
  return (registry.get(entity.name) ?? []).flatMap((h) => {
    const fn = h[kind]
    return fn ? [fn.bind(h) as NonNullable<EntityHooks[K]>] : []
  })
}

const refusal = (path: string, message: string, value: unknown = null) =>
  validationFailed([violation(path, message, 'modelgate.validation.Hook.message', value)])

function loader(s: WriteState, entity: EntityMeta, id: string | undefined) {
  return (fetchPlan = '_base') => {
    if (id === undefined) return Promise.reject(new Error(`${entity.name}: no id to load yet`))
    return load({ ...s.ctx, transaction: s.trx }, entity.name, id, { fetchPlan })
  }
}

/** beforeSave hooks of `entity`: the body to save (a copy when a hook may change it). */
export async function beforeSave(
  s: WriteState,
  entity: EntityMeta,
  body: Row,
  id: Id | undefined,
  isNew: boolean,
  path: string
): Promise<Row> {
  const hooks = hooksOf(entity, 'beforeSave')
  if (!hooks.length) return body
  const values = { ...body }
  for (const hook of hooks) {
    await hook({
      entityName: entity.name,
      subject: s.ctx.subject,
      id: id === undefined ? undefined : formatId(id),
      isNew,
      values,
      refuse(message: string, attribute?: string): never {
        const at = attribute ? joinPath(path, attribute) : path || entity.name
        throw refusal(at, message, attribute ? values[attribute] : null)
      },
    })
  }
  return values
}

export async function afterSave(
  s: WriteState,
  entity: EntityMeta,
  body: Row,
  id: Id,
  isNew: boolean
) {
  for (const hook of hooksOf(entity, 'afterSave')) {
    const shown = formatId(id)
    await hook({
      entityName: entity.name,
      subject: s.ctx.subject,
      id: shown,
      isNew,
      values: Object.freeze({ ...body }),
      load: loader(s, entity, shown),
    })
  }
}

export async function beforeDelete(s: WriteState, entity: EntityMeta, id: Id) {
  for (const hook of hooksOf(entity, 'beforeDelete')) {
    const shown = formatId(id)
    await hook({
      entityName: entity.name,
      subject: s.ctx.subject,
      id: shown,
      load: loader(s, entity, shown),
      refuse(message: string): never {
        throw refusal(entity.name, message, shown)
      },
    })
  }
}

export async function afterDelete(s: WriteState, entity: EntityMeta, id: Id) {
  for (const hook of hooksOf(entity, 'afterDelete')) {
    await hook({ entityName: entity.name, subject: s.ctx.subject, id: formatId(id) })
  }
}
