/*
 * Editing a report definition as a draft: the band tree by path (indices from the top bands
 * down), the problem paths of a band (`bands[0].children[1]`), and the body that is saved.
 */
import type { BandDefinition, Dataset, ReportDefinition, ReportParameter, RunParameter } from '../api/types'

/** Indices from the report's top bands down to one band. */
export type BandPath = number[]

export const newId = () =>
  typeof crypto !== 'undefined' && 'randomUUID' in crypto
    ? crypto.randomUUID()
    : '10000000-1000-4000-8000-100000000000'.replace(/[018]/g, (c) => (Number(c) ^ (Math.random() * 16) >> (Number(c) / 4)).toString(16))

export const blankReport = (): ReportDefinition => ({
  id: newId(),
  name: '',
  restAccess: false,
  roles: [],
  inputParameters: [],
  bands: [],
  valueFormats: [],
  templates: [],
})

export const blankBand = (name: string): BandDefinition => ({ name, orientation: 'HORIZONTAL', datasets: [], children: [] })
export const blankDataset = (): Dataset => ({ type: 'query', entity: '', fields: [] })

export function bandAt(bands: BandDefinition[], path: BandPath): BandDefinition | undefined {
  let list = bands
  let band: BandDefinition | undefined
  for (const i of path) {
    band = list[i]
    if (!band) return undefined
    list = band.children
  }
  return band
}

/** The tree with the band at `path` replaced by `fn(band)` (or removed when fn answers null). */
export function updateBand(bands: BandDefinition[], path: BandPath, fn: (b: BandDefinition) => BandDefinition | null): BandDefinition[] {
  const [head, ...rest] = path
  if (head === undefined) return bands
  const out: BandDefinition[] = []
  bands.forEach((band, i) => {
    if (i !== head) out.push(band)
    else if (rest.length) out.push({ ...band, children: updateBand(band.children, rest, fn) })
    else {
      const next = fn(band)
      if (next) out.push(next)
    }
  })
  return out
}

export const removeBand = (bands: BandDefinition[], path: BandPath) => updateBand(bands, path, () => null)

/** Every band with its path and depth, depth first (the tree as a list). */
export function flattenBands(bands: BandDefinition[], prefix: BandPath = []): { band: BandDefinition; path: BandPath; depth: number }[] {
  return bands.flatMap((band, i) => [{ band, path: [...prefix, i], depth: prefix.length }, ...flattenBands(band.children, [...prefix, i])])
}

/** A band name not used yet (`Band1`, `Band2`…). */
export function freshBandName(bands: BandDefinition[], base = 'Band'): string {
  const used = new Set(flattenBands(bands).map((b) => b.band.name))
  let n = 1
  while (used.has(`${base}${n}`)) n++
  return `${base}${n}`
}

/** Adds a band under `parent` (at the top with no parent); answers the new band's path. */
export function addBand(bands: BandDefinition[], parent: BandPath | null): { bands: BandDefinition[]; path: BandPath } {
  const band = blankBand(freshBandName(bands))
  if (!parent || parent.length === 0) return { bands: [...bands, band], path: [bands.length] }
  const at = bandAt(bands, parent)
  const next = updateBand(bands, parent, (b) => ({ ...b, children: [...b.children, band] }))
  return { bands: next, path: [...parent, at ? at.children.length : 0] }
}

/** The problem path of a band: `bands[0].children[2]`. */
export const bandProblemPath = (path: BandPath) => path.map((i, d) => (d === 0 ? `bands[${i}]` : `children[${i}]`)).join('.')

/** Errors (keyed by full path) under `prefix`, re-keyed by the rest (`.name`, `datasets[0].entity`). */
export function errorsUnder(errors: Record<string, string>, prefix: string): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [key, message] of Object.entries(errors)) {
    if (key === prefix) out[''] = message
    else if (key.startsWith(prefix + '.')) out[key.slice(prefix.length + 1)] = message
    else if (key.startsWith(prefix + '[')) out[key.slice(prefix.length)] = message
  }
  return out
}

const trimmed = (s: string | undefined) => (s?.trim() ? s.trim() : undefined)

function cleanDataset(d: Dataset): Dataset {
  const base: Dataset = { type: d.type, ...(trimmed(d.name) ? { name: trimmed(d.name) } : {}) }
  if (d.type === 'query')
    return {
      ...base,
      entity: d.entity ?? '',
      ...(d.filter && (d.filter as { conditions?: unknown[] }).conditions?.length ? { filter: d.filter } : {}),
      ...(trimmed(d.sort) ? { sort: trimmed(d.sort) } : {}),
      ...(d.limit !== undefined && !Number.isNaN(d.limit) ? { limit: d.limit } : {}),
      ...(d.fetchPlan ? { fetchPlan: d.fetchPlan } : {}),
      ...(d.fields?.length ? { fields: d.fields } : {}),
      ...(trimmed(d.link) ? { link: trimmed(d.link) } : {}),
    }
  if (d.type === 'sql') return { ...base, sql: d.sql ?? '', ...(trimmed(d.link) ? { link: trimmed(d.link) } : {}) }
  return { ...base, parameter: d.parameter ?? '', ...(d.fields?.length ? { fields: d.fields } : {}), ...(d.fetchPlan ? { fetchPlan: d.fetchPlan } : {}) }
}

function cleanBand(b: BandDefinition): BandDefinition {
  const computed = Object.fromEntries(Object.entries(b.computed ?? {}).filter(([k]) => k.trim()))
  return {
    name: b.name.trim(),
    orientation: b.orientation ?? 'HORIZONTAL',
    datasets: b.datasets.map(cleanDataset),
    ...(Object.keys(computed).length ? { computed } : {}),
    ...(trimmed(b.transform) ? { transform: trimmed(b.transform) } : {}),
    children: b.children.map(cleanBand),
  }
}

function cleanParameter(p: ReportParameter): ReportParameter {
  return {
    name: p.name.trim(),
    alias: p.alias.trim(),
    type: p.type,
    required: Boolean(p.required),
    hidden: Boolean(p.hidden),
    ...(p.defaultValue !== undefined && p.defaultValue !== '' ? { defaultValue: p.defaultValue } : {}),
    ...(p.type === 'ENUMERATION' ? { enumerationClass: p.enumerationClass ?? '' } : {}),
    ...(p.type === 'ENTITY' || p.type === 'ENTITY_LIST' ? { entityMetaClass: p.entityMetaClass ?? '' } : {}),
    ...(p.validation?.expression.trim() ? { validation: p.validation } : {}),
  }
}

/** The definition as it is saved: trimmed, empty optionals left out, stored-file facts dropped. */
export function reportBody(r: ReportDefinition): ReportDefinition {
  return {
    id: r.id,
    name: r.name.trim(),
    ...(trimmed(r.code) ? { code: trimmed(r.code) } : {}),
    ...(r.group && r.group.title.trim() ? { group: { ...r.group, title: r.group.title.trim() } } : {}),
    ...(trimmed(r.description) ? { description: trimmed(r.description) } : {}),
    ...(r.localeNames ? { localeNames: r.localeNames } : {}),
    restAccess: r.restAccess,
    roles: r.roles,
    inputParameters: r.inputParameters.map(cleanParameter),
    bands: r.bands.map(cleanBand),
    valueFormats: r.valueFormats.filter((f) => f.name.trim()).map((f) => ({ name: f.name.trim(), format: f.format })),
    templates: r.templates.map(({ fileKey: _k, sha256: _s, size: _z, ...t }) => ({
      ...t,
      code: t.code.trim(),
      default: Boolean(t.default),
      ...(trimmed(t.outputNamePattern) ? { outputNamePattern: trimmed(t.outputNamePattern) } : { outputNamePattern: undefined }),
    })),
  }
}

/** Run/preview parameters from the typed values (empty ones left out: the server's defaults apply). */
export function runParameters(params: ReportParameter[], values: Record<string, string | string[]>): RunParameter[] {
  const out: RunParameter[] = []
  for (const p of params) {
    const v = values[p.alias]
    if (v === undefined || v === '' || (Array.isArray(v) && v.length === 0)) continue
    out.push(Array.isArray(v) ? { name: p.alias, values: v } : { name: p.alias, value: v })
  }
  return out
}
