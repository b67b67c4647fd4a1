/**
 * Checks of one report against the model as a change leaves it (the definition's `reports`
 * section): every problem with its JSON path. Filters are parsed with a sample value for each
 * placeholder, as named queries are; expressions are compiled; SQL is checked for its shape.
 */
import { BUILTIN_FETCH_PLANS } from '#engine/metadata/types'
import { compileExpression } from 'filtrex'
import jsonata from 'jsonata'
import type { Model } from '#engine/metadata/model'
import type { Problem } from '#engine/metadata/validate'
import { parseFilter } from '#engine/query/filter_parser'
import { parseSort } from '#engine/query/sort'
import { sampleValue } from '#engine/queries/params'
import type { ParamType } from '#engine/queries/store'
import { bindFilter, filterPlaceholders, sqlPlaceholders, type Placeholder } from './bind.js'
import { resolvePath } from './paths.js'
import { checkSql } from './sql_shape.js'
import {
  OUTPUT_TYPES,
  PARAMETER_TYPES,
  type BandDefinition,
  type Dataset,
  type ReportDefinition,
} from './types.js'

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const BUILT_IN_PLANS: ReadonlySet<string> = new Set(BUILTIN_FETCH_PLANS)

interface Scope {
  model: Model
  report: ReportDefinition
  out: Problem[]
  /** Entity of each band's rows (from its first dataset), for `:Band.field` samples. */
  bandEntities: Map<string, string | undefined>
}

/** A sample filter value of the attribute's type (for parsing a filter without a run). */
function attributeSample(model: Model, entity: string | undefined, field: string): unknown {
  if (!entity) return undefined
  const found = resolvePath(model, entity, field)
  if ('error' in found) return undefined
  const a = found.attribute
  if (a.target) return sampleValue(model, { name: field, type: 'entity', entity: a.target })
  const map: Record<string, ParamType> = { text: 'string', offsetDateTime: 'dateTime' }
  const type = (map[a.type] ?? a.type) as ParamType
  return sampleValue(model, { name: field, type, enum: a.definition?.enum })
}

function parameterSample(model: Model, report: ReportDefinition, alias: string): unknown {
  const p = report.inputParameters.find((x) => x.alias === alias)
  if (!p) return undefined
  const entity = { name: alias, type: 'entity' as const, entity: p.entityMetaClass }
  switch (p.type) {
    case 'TEXT':
      return 'sample'
    case 'NUMERIC':
      return 1
    case 'BOOLEAN':
      return true
    case 'DATE':
      return '2024-01-31'
    case 'DATETIME':
      return '2024-01-31T12:30:00'
    case 'TIME':
      return '12:30:00'
    case 'ENUMERATION':
      return sampleValue(model, { name: alias, type: 'enum', enum: p.enumerationClass })
    case 'ENTITY':
      return sampleValue(model, entity)
    case 'ENTITY_LIST':
      return [sampleValue(model, entity)]
  }
}

/** Problems of placeholders that name neither a parameter nor an ancestor band. */
function checkPlaceholders(s: Scope, used: Placeholder[], ancestors: string[], path: string) {
  for (const p of used) {
    if (p.field === undefined) {
      if (!s.report.inputParameters.some((x) => x.alias === p.name))
        s.out.push({ path, message: `parameter '${p.name}' is not declared in inputParameters` })
    } else if (!ancestors.includes(p.name))
      s.out.push({ path, message: `'${p.name}.${p.field}': '${p.name}' is not an enclosing band` })
  }
}

function checkDataset(s: Scope, d: Dataset, ancestors: string[], path: string) {
  const { model, report, out } = s
  if (d.type === 'sql') {
    const problem = typeof d.sql === 'string' ? checkSql(d.sql) : 'an SQL dataset needs `sql`'
    if (problem) out.push({ path: `${path}.sql`, message: problem })
    else checkPlaceholders(s, sqlPlaceholders(d.sql!), ancestors, `${path}.sql`)
    return
  }
  let entity = d.entity
  if (d.type === 'entity' || d.type === 'entityList') {
    const want = d.type === 'entity' ? 'ENTITY' : 'ENTITY_LIST'
    const p = report.inputParameters.find((x) => x.alias === d.parameter)
    if (!p || p.type !== want) {
      out.push({ path: `${path}.parameter`, message: `needs the alias of an ${want} parameter` })
      return
    }
    entity = p.entityMetaClass
  } else if (d.type !== 'query') {
    out.push({
      path: `${path}.type`,
      message: `'${d.type}' is not one of query, entity, entityList, sql`,
    })
    return
  }
  const meta = model.entity(entity ?? '')
  if (!meta) {
    out.push({ path: `${path}.entity`, message: `unknown entity '${entity ?? ''}'` })
    return
  }
  for (const [i, field] of (d.fields ?? []).entries()) {
    const found = resolvePath(model, meta.name, field)
    if ('error' in found) out.push({ path: `${path}.fields[${i}]`, message: found.error })
  }
  if (typeof d.fetchPlan === 'string' && !BUILT_IN_PLANS.has(d.fetchPlan))
    if (!model.fetchPlans.get(meta.name)?.has(d.fetchPlan))
      out.push({
        path: `${path}.fetchPlan`,
        message: `unknown fetch plan '${d.fetchPlan}' of ${meta.name}`,
      })
  if (d.type !== 'query') return
  if (d.sort !== undefined) {
    const sort = parseSort(model, meta.name, d.sort)
    if (!sort.ok) out.push({ path: `${path}.sort`, message: sort.error.details })
  }
  if (d.filter === undefined || d.filter === null) return
  const used = filterPlaceholders(d.filter)
  const before = out.length
  checkPlaceholders(s, used, ancestors, `${path}.filter`)
  if (out.length > before) return
  let unknown = false
  const bound = bindFilter(d.filter, (p) => {
    const v =
      p.field === undefined
        ? parameterSample(model, report, p.name)
        : attributeSample(model, s.bandEntities.get(p.name), p.field)
    if (v === undefined) unknown = true
    return v
  })
  if (unknown) return // a band field of unknown type: checked when the report runs
  const parsed = parseFilter(model, meta.name, bound)
  if (!parsed.ok) out.push({ path: `${path}.filter`, message: parsed.error.details })
}

function compiles(expression: string, kind: 'filtrex' | 'jsonata'): string | null {
  try {
    if (kind === 'filtrex') compileExpression(expression)
    else jsonata(expression)
    return null
  } catch (error) {
    return (error as Error).message
  }
}

function checkBand(
  s: Scope,
  band: BandDefinition,
  ancestors: string[],
  path: string,
  seen: Set<string>
) {
  const { out } = s
  if (!NAME.test(band.name ?? '') || band.name === 'Root')
    out.push({
      path: `${path}.name`,
      message: `'${band.name}' is not a band name (letters, digits, _; not Root)`,
    })
  else if (seen.has(band.name))
    out.push({ path: `${path}.name`, message: `duplicate band '${band.name}'` })
  seen.add(band.name)
  if (band.orientation && !['HORIZONTAL', 'VERTICAL'].includes(band.orientation))
    out.push({ path: `${path}.orientation`, message: 'must be HORIZONTAL or VERTICAL' })
  band.datasets.forEach((d, i) => checkDataset(s, d, ancestors, `${path}.datasets[${i}]`))
  for (const [name, expression] of Object.entries(band.computed ?? {})) {
    const problem =
      typeof expression === 'string' ? compiles(expression, 'filtrex') : 'must be an expression'
    if (problem) out.push({ path: `${path}.computed.${name}`, message: problem })
  }
  if (band.transform !== undefined) {
    const problem = compiles(band.transform, 'jsonata')
    if (problem) out.push({ path: `${path}.transform`, message: problem })
  }
  band.children.forEach((c, i) =>
    checkBand(s, c, [...ancestors, band.name], `${path}.children[${i}]`, seen)
  )
}

function entityOfBand(report: ReportDefinition, band: BandDefinition) {
  const d = band.datasets[0]
  if (!d) return undefined
  if (d.type === 'query') return d.entity
  return report.inputParameters.find((p) => p.alias === d.parameter)?.entityMetaClass
}

function checkParameters(model: Model, report: ReportDefinition, path: string, out: Problem[]) {
  const aliases = new Set<string>()
  report.inputParameters.forEach((p, i) => {
    const pp = `${path}.inputParameters[${i}]`
    if (!NAME.test(p.alias ?? ''))
      out.push({ path: `${pp}.alias`, message: `'${p.alias}' is not an alias` })
    else if (aliases.has(p.alias))
      out.push({ path: `${pp}.alias`, message: `duplicate alias '${p.alias}'` })
    aliases.add(p.alias)
    if (!PARAMETER_TYPES.includes(p.type))
      out.push({
        path: `${pp}.type`,
        message: `'${p.type}' is not one of ${PARAMETER_TYPES.join(', ')}`,
      })
    if (p.type === 'ENUMERATION' && !model.enums.has(p.enumerationClass ?? ''))
      out.push({
        path: `${pp}.enumerationClass`,
        message: `unknown enum '${p.enumerationClass ?? ''}'`,
      })
    if ((p.type === 'ENTITY' || p.type === 'ENTITY_LIST') && !model.entity(p.entityMetaClass ?? ''))
      out.push({
        path: `${pp}.entityMetaClass`,
        message: `unknown entity '${p.entityMetaClass ?? ''}'`,
      })
    if (p.validation) {
      const problem = compiles(p.validation.expression, 'filtrex')
      if (problem) out.push({ path: `${pp}.validation.expression`, message: problem })
    }
  })
}

function checkTemplates(report: ReportDefinition, path: string, out: Problem[]) {
  const codes = new Set<string>()
  let defaults = 0
  report.templates.forEach((t, i) => {
    const tp = `${path}.templates[${i}]`
    if (typeof t.code !== 'string' || !t.code.trim())
      out.push({ path: `${tp}.code`, message: 'a template needs a code' })
    else if (codes.has(t.code))
      out.push({ path: `${tp}.code`, message: `duplicate template '${t.code}'` })
    codes.add(t.code)
    if (!OUTPUT_TYPES.includes(t.outputType))
      out.push({
        path: `${tp}.outputType`,
        message: `'${t.outputType}' is not one of ${OUTPUT_TYPES.join(', ')}`,
      })
    if (t.default) defaults++
    if (t.options?.delimiter !== undefined && [...t.options.delimiter].length !== 1)
      out.push({ path: `${tp}.options.delimiter`, message: 'must be one character' })
  })
  if (defaults > 1)
    out.push({ path: `${path}.templates`, message: 'more than one default template' })
}

/** Problems of one report (paths under `path`); `roles`: the resource role codes that exist. */
export function checkReport(
  model: Model,
  report: ReportDefinition,
  path: string,
  out: Problem[],
  roles?: ReadonlySet<string>
) {
  if (!UUID.test(report.id))
    out.push({ path: `${path}.id`, message: `'${report.id}' is not a UUID` })
  if (report.group && !UUID.test(report.group.id ?? ''))
    out.push({ path: `${path}.group.id`, message: `'${report.group.id}' is not a UUID` })
  report.roles.forEach((role, i) => {
    if (roles && !roles.has(role))
      out.push({ path: `${path}.roles[${i}]`, message: `unknown resource role '${role}'` })
  })
  checkParameters(model, report, path, out)
  const bandEntities = new Map<string, string | undefined>()
  const collect = (bands: BandDefinition[]) =>
    bands.forEach((b) => {
      bandEntities.set(b.name, entityOfBand(report, b))
      collect(b.children)
    })
  collect(report.bands)
  const scope: Scope = { model, report, out, bandEntities }
  const seen = new Set<string>()
  report.bands.forEach((b, i) => checkBand(scope, b, ['Root'], `${path}.bands[${i}]`, seen))
  report.valueFormats.forEach((f, i) => {
    const band = f.name?.includes('.') ? f.name.split('.')[0] : undefined
    if (band && band !== 'Root' && !seen.has(band))
      out.push({ path: `${path}.valueFormats[${i}].name`, message: `unknown band '${band}'` })
  })
  checkTemplates(report, path, out)
}
