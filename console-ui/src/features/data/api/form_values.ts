/*
 * Form state <-> /rest JSON. The form keeps what inputs edit (text for numbers, local time for
 * offset date-times, JSON as text, references as {id, _instanceName}); the body sent is the
 * upstream write format (partial: only what changed, with `version`; compositions as the full
 * nested collection, children by id).
 */
import type { ModelAttribute, ModelEntity } from '../../../lib/model'
import { isToMany } from '../../../lib/model'
import { isoToLocalInput, localInputToIso } from '../../../components/filter/value_input'
import { formAttributes, isInverse, type CaptionLookup, type EntityRow } from './schema'

export type FormValues = Record<string, unknown>

/** A child row of a composition in the form. */
export interface ChildForm {
  /** Stable React key (the id, or a local one for new rows). */
  key: string
  id?: string
  version?: number
  values: FormValues
}

export interface FormContext {
  byName: Map<string, ModelEntity>
  /** The label of an attribute (REST metadata captions). */
  caption: CaptionLookup
}

let localKeys = 0
export const newKey = () => `new-${++localKeys}`

const compositionTarget = (a: ModelAttribute, ctx: FormContext) =>
  a.type === 'composition' ? ctx.byName.get(a.target ?? '') : undefined

/** The back-reference of a composition's child rows (not edited in the nested editor). */
export const backRefOf = (a: ModelAttribute) => (a.mappedBy as string | undefined) ?? undefined

export function emptyValue(a: ModelAttribute): unknown {
  if (a.type === 'association') return isToMany(a) ? [] : null
  if (a.type === 'composition') return isToMany(a) ? [] : null
  if (a.type === 'boolean') return a.mandatory ? false : null
  return ''
}

export function toFormValue(a: ModelAttribute, json: unknown, ctx: FormContext): unknown {
  if (json === undefined || json === null) return emptyValue(a)
  const target = compositionTarget(a, ctx)
  if (target) {
    const child = (row: EntityRow): ChildForm => ({
      key: row.id,
      id: row.id,
      version: row.version,
      values: toForm(target, row, ctx, backRefOf(a)),
    })
    if (isToMany(a)) return (json as EntityRow[]).map(child)
    return child(json as EntityRow)
  }
  if (a.type === 'association') {
    const ref = (r: EntityRow) => ({ id: r.id, _instanceName: r._instanceName })
    return isToMany(a) ? (json as EntityRow[]).map(ref) : ref(json as EntityRow)
  }
  switch (a.type) {
    case 'boolean':
      return Boolean(json)
    case 'json':
      return JSON.stringify(json, null, 2)
    case 'offsetDateTime':
      return isoToLocalInput(String(json))
    case 'dateTime':
      return String(json).replace(/\.0+$/, '')
    case 'decimal': {
      const scale = typeof a.scale === 'number' ? a.scale : 2
      return typeof json === 'number' ? json.toFixed(scale) : String(json)
    }
    default:
      return String(json)
  }
}

export function toForm(
  entity: ModelEntity,
  row: EntityRow | null,
  ctx: FormContext,
  skip?: string
): FormValues {
  const out: FormValues = {}
  for (const a of formAttributes(entity, skip)) out[a.name] = toFormValue(a, row?.[a.name], ctx)
  if (entity.idType === 'string') out.id = row?.id ?? ''
  return out
}

/** A value the form cannot turn into JSON (bad JSON text, a number that is not one). */
export class FormValueError extends Error {
  constructor(
    readonly path: string,
    message: string
  ) {
    super(message)
  }
}

export function toJsonValue(
  a: ModelAttribute,
  v: unknown,
  ctx: FormContext,
  path: string
): unknown {
  const target = compositionTarget(a, ctx)
  if (target) {
    const child = (c: ChildForm, at: string) => {
      const body: Record<string, unknown> = { ...toBody(target, c.values, ctx, at, backRefOf(a)) }
      if (c.id) body.id = c.id
      if (c.version !== undefined) body.version = c.version
      return body
    }
    if (isToMany(a)) return ((v as ChildForm[]) ?? []).map((c, i) => child(c, `${path}[${i}]`))
    return v ? child(v as ChildForm, path) : null
  }
  if (a.type === 'association') {
    if (isToMany(a)) return ((v as { id: string }[]) ?? []).map((r) => ({ id: r.id }))
    return v ? { id: (v as { id: string }).id } : null
  }
  if (v === '' || v === null || v === undefined) return null
  switch (a.type) {
    case 'int':
    case 'long':
    case 'double': {
      const n = Number(v)
      if (!Number.isFinite(n)) throw new FormValueError(path, 'must be a number')
      return n
    }
    case 'decimal':
      if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(String(v).trim()))
        throw new FormValueError(path, 'must be a number')
      return String(v).trim()
    case 'json':
      try {
        return JSON.parse(String(v))
      } catch (e) {
        throw new FormValueError(path, `is not valid JSON (${(e as Error).message})`)
      }
    case 'offsetDateTime':
      return localInputToIso(String(v))
    default:
      return v
  }
}

/** Every edited attribute as JSON (nulls included). */
export function toBody(
  entity: ModelEntity,
  values: FormValues,
  ctx: FormContext,
  prefix = '',
  skip?: string
) {
  const out: Record<string, unknown> = {}
  const at = (name: string) => (prefix ? `${prefix}.${name}` : name)
  for (const a of formAttributes(entity, skip))
    if (!isInverse(a)) out[a.name] = toJsonValue(a, values[a.name], ctx, at(a.name))
  if (entity.idType === 'string' && values.id) out.id = values.id
  return out
}

/** The write body: on create the non-empty values; on update what changed, plus `version`. */
export function writeBody(
  entity: ModelEntity,
  values: FormValues,
  original: { values: FormValues; version?: number } | null,
  ctx: FormContext
): Record<string, unknown> {
  const now = toBody(entity, values, ctx)
  if (!original) {
    return Object.fromEntries(
      Object.entries(now).filter(([, v]) => v !== null && !(Array.isArray(v) && v.length === 0))
    )
  }
  const before = toBody(entity, original.values, ctx)
  const changed: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(now))
    if (JSON.stringify(v) !== JSON.stringify(before[k])) changed[k] = v
  delete changed.id
  if (original.version !== undefined) changed.version = original.version
  return changed
}

/** Every body path the form shows a field (or a nested editor) for: where errors can appear. */
export function fieldPaths(
  entity: ModelEntity,
  values: FormValues,
  ctx: FormContext,
  prefix = '',
  skip?: string
): string[] {
  const at = (name: string) => (prefix ? `${prefix}.${name}` : name)
  const out: string[] = entity.idType === 'string' ? [at('id')] : []
  for (const a of formAttributes(entity, skip)) {
    out.push(at(a.name))
    const target = compositionTarget(a, ctx)
    if (!target) continue
    const v = values[a.name]
    if (isToMany(a))
      ((v as ChildForm[] | null) ?? []).forEach((c, i) =>
        out.push(...fieldPaths(target, c.values, ctx, `${at(a.name)}[${i}]`, backRefOf(a)))
      )
    else if (v)
      out.push(...fieldPaths(target, (v as ChildForm).values, ctx, at(a.name), backRefOf(a)))
  }
  return out
}

/** Names of the top-level attributes whose value differs from the loaded one. */
export function changedAttributes(
  entity: ModelEntity,
  values: FormValues,
  original: FormValues,
  ctx: FormContext
): string[] {
  return formAttributes(entity)
    .filter((a) => JSON.stringify(values[a.name]) !== JSON.stringify(original[a.name]))
    .map((a) => a.name)
    .concat(ctx && values.id !== original.id ? ['id'] : [])
}
