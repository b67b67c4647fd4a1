/**
 * Stored reports follow model renames (an entity, an attribute on any segment of a property
 * path in dataset fields, filters and sorts), as named queries do, so that renaming an
 * attribute never strands a report. Expressions, value formats and `:Band.field` placeholders
 * name band fields and are left as they are.
 */
import type { Renames } from '#engine/definition/renames'
import type { Model } from '#engine/metadata/model'
import { followFilter, followPath, followSort } from '#engine/queries/follow'
import type { BandDefinition, ReportDefinition } from './types.js'

export function followReport(
  model: Model,
  renames: Renames,
  r: ReportDefinition
): ReportDefinition {
  const entityName = (name: string) => renames.entities.get(name) ?? name
  const inputParameters = r.inputParameters.map((p) =>
    p.entityMetaClass ? { ...p, entityMetaClass: entityName(p.entityMetaClass) } : p
  )
  const band = (b: BandDefinition): BandDefinition => ({
    ...b,
    datasets: b.datasets.map((d) => {
      if (d.type === 'sql') return d
      const entity =
        d.type === 'query'
          ? entityName(d.entity ?? '')
          : (inputParameters.find((p) => p.alias === d.parameter)?.entityMetaClass ?? '')
      return {
        ...d,
        ...(d.type === 'query' ? { entity } : {}),
        ...(d.fields ? { fields: d.fields.map((f) => followPath(model, renames, entity, f)) } : {}),
        ...(d.filter !== undefined
          ? { filter: followFilter(model, renames, entity, d.filter) }
          : {}),
        ...(d.sort !== undefined ? { sort: followSort(model, renames, entity, d.sort) } : {}),
      }
    }),
    children: b.children.map(band),
  })
  return { ...r, inputParameters, bands: r.bands.map(band) }
}
