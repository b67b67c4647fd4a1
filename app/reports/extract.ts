/**
 * The band tree of one run. Every entity dataset reads through the caller's DataManager, so
 * entity, attribute and row-level permissions shape the document exactly as they shape the REST
 * API (an attribute the caller may not view is absent, a row they may not read is missing). A
 * child band is read once per parent row (`:Parent.field` binds that row), as upstream does.
 */
import type { Database } from '@adonisjs/lucid/database'
import type { DataManager } from '#engine/data/data_manager'
import { bindFilter, type Placeholder } from './bind.js'
import { addComputed, runTransform } from './expressions.js'
import type { ParameterValue } from './params.js'
import { fieldType, flatten, planOfFields, resolvePath } from './paths.js'
import { runSql } from './sql.js'
import {
  ReportError,
  type BandDefinition,
  type BandInstance,
  type BandLayout,
  type Dataset,
  type FieldTypes,
  type ReportDefinition,
  type ReportValue,
} from './types.js'

type Row = Record<string, ReportValue>

export interface ExtractOptions {
  data: DataManager
  db: Database
  report: ReportDefinition
  params: Map<string, ParameterValue>
  maxRows: number
  sqlTimeoutMs: number
  transformTimeoutMs: number
  signal: AbortSignal
}

export interface Extracted {
  root: BandInstance
  layout: BandLayout[]
  types: FieldTypes
  rows: number
}

class Extraction {
  rows = 0
  fields = new Map<string, Set<string>>()
  types: FieldTypes = {}

  constructor(readonly o: ExtractOptions) {}

  check() {
    if (this.o.signal.aborted)
      throw this.o.signal.reason ?? new ReportError('Report run aborted', 503)
  }

  valueOf(chain: Map<string, Row>) {
    return (p: Placeholder) =>
      p.field === undefined
        ? (this.o.params.get(p.name)?.value ?? null)
        : (chain.get(p.name)?.[p.field] ?? null)
  }

  plan(d: Dataset): string {
    if (d.fetchPlan !== undefined)
      return typeof d.fetchPlan === 'string' ? d.fetchPlan : JSON.stringify(d.fetchPlan)
    return d.fields?.length ? JSON.stringify(planOfFields(d.fields)) : '_base'
  }

  entityOf(d: Dataset) {
    if (d.type === 'query') return d.entity!
    return this.o.report.inputParameters.find((p) => p.alias === d.parameter)!.entityMetaClass!
  }

  async dataset(d: Dataset, chain: Map<string, Row>): Promise<Row[]> {
    const { data } = this.o
    if (d.type === 'sql') {
      if (!data.context.permissions.specific('reports.sql.enabled'))
        throw new ReportError(
          'Running SQL datasets needs the specific policy reports.sql.enabled',
          403
        )
      return runSql({
        db: this.o.db,
        sql: d.sql!,
        valueOf: this.valueOf(chain),
        maxRows: this.o.maxRows - this.rows,
        timeoutMs: this.o.sqlTimeoutMs,
      })
    }
    const entity = this.entityOf(d)
    const options = { fetchPlan: this.plan(d), serverPlan: true }
    if (d.type === 'entity') {
      const id = this.o.params.get(d.parameter!)?.value
      if (id === null || id === undefined) return []
      return [flatten(await data.load(entity, String(id), options))]
    }
    if (d.type === 'entityList') {
      const ids = (this.o.params.get(d.parameter!)?.value ?? []) as string[]
      if (!ids.length) return []
      const rows: Row[] = []
      for (const id of ids) rows.push(flatten(await data.load(entity, String(id), options)))
      return rows
    }
    const filter = d.filter ? bindFilter(d.filter, this.valueOf(chain)) : undefined
    const page = data.context.maxFetchSize
    const wanted = Math.min(d.limit ?? Number.POSITIVE_INFINITY, this.o.maxRows - this.rows + 1)
    const rows: Row[] = []
    while (rows.length < wanted) {
      this.check()
      const limit = Math.min(page, wanted - rows.length)
      const { items } = await data.list(entity, {
        ...options,
        filter,
        sort: d.sort,
        limit,
        offset: rows.length,
      })
      for (const item of items) rows.push(flatten(item))
      if (items.length < limit) break
    }
    return rows
  }

  record(band: string, rows: Row[], d: Dataset | undefined) {
    const fields = this.fields.get(band) ?? new Set<string>()
    this.fields.set(band, fields)
    const types = (this.types[band] ??= {})
    for (const f of d?.fields ?? []) fields.add(f)
    const entity = d && d.type !== 'sql' ? this.entityOf(d) : undefined
    for (const row of rows.slice(0, 50))
      for (const [key, value] of Object.entries(row)) {
        if (!d?.fields?.length) fields.add(key)
        if (types[key] || value === null) continue
        const found =
          entity && key !== '_instanceName'
            ? resolvePath(this.o.data.context.model, entity, key)
            : undefined
        types[key] =
          found && 'attribute' in found
            ? fieldType(found.attribute)
            : typeof value === 'number'
              ? 'double'
              : typeof value === 'boolean'
                ? 'boolean'
                : 'string'
      }
  }

  async band(def: BandDefinition, chain: Map<string, Row>): Promise<Row[]> {
    this.check()
    let rows: Row[]
    if (!def.datasets.length)
      rows = [Object.fromEntries([...this.o.params].map(([k, v]) => [k, v.text]))]
    else {
      rows = await this.dataset(def.datasets[0], chain)
      this.record(def.name, rows, def.datasets[0])
      for (const d of def.datasets.slice(1)) {
        const more = await this.dataset(d, chain)
        this.record(def.name, more, d)
        if (d.link) {
          const byLink = new Map(more.map((r) => [String(r[d.link!]), r]))
          for (const row of rows) Object.assign(row, byLink.get(String(row[d.link])) ?? {})
        } else rows.forEach((row, i) => Object.assign(row, more[i] ?? {}))
      }
    }
    addComputed(rows, def.computed)
    if (def.transform) rows = await runTransform(def.transform, rows, this.o.transformTimeoutMs)
    if (def.computed || def.transform || !def.datasets.length)
      this.record(def.name, rows, undefined)
    this.rows += rows.length
    if (this.rows > this.o.maxRows)
      throw new ReportError(
        `The report reads more than ${this.o.maxRows} rows (svc.reports.max-rows)`,
        413
      )
    return rows
  }

  async children(parent: BandInstance, defs: BandDefinition[], chain: Map<string, Row>) {
    for (const def of defs) {
      const list: BandInstance[] = (parent.bands[def.name] = [])
      for (const fields of await this.band(def, chain)) {
        const instance: BandInstance = { name: def.name, fields, bands: {} }
        list.push(instance)
        if (def.children.length)
          await this.children(instance, def.children, new Map(chain).set(def.name, fields))
      }
    }
  }

  layout(defs: BandDefinition[]): BandLayout[] {
    return defs.map((def) => {
      const fields = [...(this.fields.get(def.name) ?? [])]
      for (const name of Object.keys(def.computed ?? {}))
        if (!fields.includes(name)) fields.push(name)
      return {
        name: def.name,
        orientation: def.orientation ?? 'HORIZONTAL',
        fields,
        children: this.layout(def.children),
      }
    })
  }
}

/** Reads every band of the report as the DataManager's subject. */
export async function extractReport(o: ExtractOptions): Promise<Extracted> {
  const extraction = new Extraction(o)
  const rootFields = Object.fromEntries([...o.params].map(([k, v]) => [k, v.text]))
  const root: BandInstance = { name: 'Root', fields: rootFields, bands: {} }
  await extraction.children(root, o.report.bands, new Map([['Root', rootFields]]))
  extraction.types.Root = Object.fromEntries(
    o.report.inputParameters.map((p) => [
      p.alias,
      (
        {
          NUMERIC: 'double',
          BOOLEAN: 'boolean',
          DATE: 'date',
          DATETIME: 'dateTime',
          TIME: 'time',
        } as Record<string, string>
      )[p.type] ?? 'string',
    ])
  )
  return {
    root,
    layout: extraction.layout(o.report.bands),
    types: extraction.types,
    rows: extraction.rows,
  }
}
