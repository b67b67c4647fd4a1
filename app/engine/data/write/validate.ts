/**
 * Bean-validation equivalents derived from the model (mandatory, length, min/max, pattern,
 * unique), producing the upstream violation items (reference 5.2). Row checks are pure; the
 * unique check queries the rows as the transaction sees them (the DB constraint stays the
 * fallback, translated in errors).
 */
import type { WriteClient } from '../../schema/dialects/direct_writes.js'
import type { AttributeMeta, EntityMeta } from '../../metadata/model.js'
import { DataError } from '../errors.js'
import { scalarText } from '../../query/values/convert.js'
import { decimalOverflow } from './values.js'

export interface Violation {
  message: string
  messageTemplate: string
  path: string
  invalidValue: string | number | null
}

export const joinPath = (base: string, name: string) => (base ? `${base}.${name}` : name)

const shown = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? v : null)

export function violation(
  path: string,
  message: string,
  template: string,
  invalidValue: unknown
): Violation {
  return {
    message,
    messageTemplate: `{${template}}`,
    path,
    invalidValue: shown(invalidValue),
  }
}

export const mustNotBeNull = (path: string) =>
  violation(path, 'must not be null', 'jakarta.validation.constraints.NotNull.message', null)

export const mustBeUnique = (path: string, value: unknown) =>
  violation(path, 'must be unique', 'modelgate.validation.Unique.message', value)

export const validationFailed = (violations: Violation[]) =>
  new DataError(400, 'Validation failed', 'Entity validation failed', violations)

function bound(a: AttributeMeta, key: 'min' | 'max', value: number, path: string, json: unknown) {
  const limit = a.definition?.[key]
  if (limit === undefined || limit === null) return null
  const n = Number(limit)
  if (key === 'min' ? value >= n : value <= n) return null
  const decimal = a.datatype === 'decimal' || a.datatype === 'double'
  const name = `${decimal ? 'Decimal' : ''}${key === 'min' ? 'Min' : 'Max'}`
  const relation = key === 'min' ? 'greater' : 'less'
  return violation(
    path,
    `must be ${relation} than or equal to ${limit}`,
    `jakarta.validation.constraints.${name}.message`,
    json
  )
}

/** Constraint checks of one attribute's JSON value (mandatory is checked on the row). */
export function checkValue(a: AttributeMeta, json: unknown, path: string): Violation[] {
  const out: Violation[] = []
  const d = a.definition
  if (!d || json === null || json === undefined) return out
  // A number or boolean sent for a string is checked in its string form, as it is stored.
  const text = a.datatype === 'string' || a.datatype === 'text' ? scalarText(json) : undefined
  if (text !== undefined) {
    const max = a.datatype === 'string' ? (d.length ?? 255) : undefined
    if (max !== undefined && text.length > max) {
      out.push(
        violation(
          path,
          `size must be between 0 and ${max}`,
          'jakarta.validation.constraints.Size.message',
          text
        )
      )
    }
    if (d.pattern && !new RegExp(d.pattern).test(text)) {
      out.push(
        violation(
          path,
          `must match "${d.pattern}"`,
          'jakarta.validation.constraints.Pattern.message',
          text
        )
      )
    }
  }
  if (['int', 'long', 'double', 'decimal'].includes(a.datatype ?? '')) {
    const n = Number(json)
    for (const key of ['min', 'max'] as const) {
      const v = bound(a, key, n, path, json)
      if (v) out.push(v)
    }
  }
  const bounds = a.datatype === 'decimal' ? decimalOverflow(a, json) : null
  if (bounds) {
    const { integer, fraction } = bounds
    const message = `numeric value out of bounds (<${integer} digits>.<${fraction} digits> expected)`
    out.push(violation(path, message, 'jakarta.validation.constraints.Digits.message', json))
  }
  return out
}

/** Mandatory attributes with a column must be non-null in a new row; updates check what they set. */
export function checkMandatory(
  entity: EntityMeta,
  row: Record<string, unknown>,
  isNew: boolean,
  path: string
): Violation[] {
  const out: Violation[] = []
  for (const a of entity.attributeList) {
    if (!a.mandatory || !a.column || (a.system && !(a.name === 'id' && isNew))) continue
    if (a.name === 'id' && entity.idType !== 'string') continue
    const value = row[a.column]
    if (value === null || (isNew && value === undefined))
      out.push(mustNotBeNull(joinPath(path, a.name)))
  }
  return out
}

/** Unique attributes and unique indexes touched by `row`, checked against the other live rows. */
export async function checkUnique(
  trx: WriteClient,
  entity: EntityMeta,
  row: Record<string, unknown>,
  existing: Record<string, unknown> | null,
  id: unknown,
  path: string
): Promise<Violation[]> {
  const groups: AttributeMeta[][] = []
  for (const a of entity.attributeList) if (a.unique && !a.system && a.column) groups.push([a])
  for (const index of entity.definition.indexes ?? []) {
    if (index.unique) groups.push(index.attributes.map((n) => entity.attributes.get(n)!))
  }
  const out: Violation[] = []
  for (const group of groups) {
    if (!group.some((a) => a.column! in row)) continue
    const values = group.map((a) => (a.column! in row ? row[a.column!] : existing?.[a.column!]))
    if (values.some((v) => v === null || v === undefined)) continue
    const query = trx.from(entity.table).select('id')
    group.forEach((a, i) => query.where(a.column!, values[i] as any))
    if (id !== undefined && id !== null) query.whereNot('id', id as any)
    if (entity.traits.has('softDelete')) query.whereNull('deleted_date')
    if (await query.first()) {
      const a = group[0]
      // A reference shows no invalid value (reference 5.2: only simple values are kept).
      const value = a.kind === 'datatype' ? (row[a.column!] ?? values[0]) : null
      out.push(mustBeUnique(joinPath(path, a.name), value))
    }
  }
  return out
}
