/**
 * Reports as the REST API shows them (reference 11.3; Gson: nulls omitted, field order as
 * upstream): a list item, and the details with templates and input parameters.
 */
import type { ReportDefinition } from './types.js'

export function summarizeReport(r: ReportDefinition) {
  return {
    id: r.id,
    name: r.name,
    ...(r.code ? { code: r.code } : {}),
    ...(r.group ? { group: r.group.id } : {}),
  }
}

export function describeReport(r: ReportDefinition) {
  const defaultCode = (r.templates.find((t) => t.default) ?? r.templates[0])?.code
  return {
    ...summarizeReport(r),
    templates: r.templates.map((t) => ({
      code: t.code,
      outputType: t.outputType,
      default: t.code === defaultCode,
    })),
    inputParameters: r.inputParameters.map((p) => ({
      name: p.name,
      alias: p.alias,
      type: p.type,
      required: p.required === true,
      hidden: p.hidden === true,
      ...(p.entityMetaClass && (p.type === 'ENTITY' || p.type === 'ENTITY_LIST')
        ? { entityMetaClass: p.entityMetaClass }
        : {}),
      ...(p.enumerationClass && p.type === 'ENUMERATION'
        ? { enumerationClass: p.enumerationClass }
        : {}),
      ...(p.defaultValue !== undefined ? { defaultValue: p.defaultValue } : {}),
    })),
  }
}
