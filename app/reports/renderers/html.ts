/**
 * HTML from a Handlebars template over Jmix's model (reports-upstream 3.3): the top-level `Root`
 * is `{fields, bands}` and every band instance `{fields, bands}`, so a template writes
 * `{{#each Root.bands.Orders}}{{fields.number}}{{/each}}`; fields are pre-formatted
 * (`job.value(...).text`). Handlebars runs in its own environment: prototype properties and
 * methods denied (the default since 4.6), no custom helpers, `log` removed, output HTML-escaped
 * unless a template writes `{{{triple}}}`. Without a template file: html_default.ts.
 */
import Handlebars from 'handlebars'
import {
  ReportError,
  type BandInstance,
  type BandLayout,
  type RenderJob,
  type RenderResult,
} from '../types.js'
import { checkAborted, sized } from './common.js'
import { defaultHtml } from './html_default.js'

const hb = Handlebars.create()
hb.unregisterHelper('log')

/** Compiled templates by content (an uploaded template rarely changes; bounded). */
const compiled = new Map<string, HandlebarsTemplateDelegate>()
const MAX_CACHED = 50

export interface ModelBand {
  fields: Record<string, string>
  bands: Record<string, ModelBand[]>
}

/** The Jmix HTML model: `{Root: {fields, bands}}` with printable texts. */
export function htmlModel(job: RenderJob): {
  Root: ModelBand
  report: { name: string; code: string }
} {
  const layouts = new Map<string, BandLayout>()
  const index = (list: BandLayout[]) => {
    for (const l of list) {
      layouts.set(l.name, l)
      index(l.children)
    }
  }
  index(job.layout)
  const convert = (instance: BandInstance, name: string): ModelBand => {
    // Null-prototype records: a field literally named `__proto__` stays a plain key.
    const fields: Record<string, string> = Object.create(null)
    for (const f of layouts.get(name)?.fields ?? []) fields[f] = ''
    for (const key of Object.keys(instance.fields)) {
      fields[key] = job.value(name, key, instance.fields[key]).text
    }
    const bands: Record<string, ModelBand[]> = Object.create(null)
    for (const key of Object.keys(instance.bands)) {
      const rows = instance.bands[key]
      bands[key] = Array.isArray(rows) ? rows.map((r) => convert(r, key)) : []
    }
    return { fields, bands }
  }
  return {
    Root: convert(job.root, 'Root'),
    report: { name: job.report.name, code: job.report.code ?? '' },
  }
}

function template(source: string): HandlebarsTemplateDelegate {
  let fn = compiled.get(source)
  if (!fn) {
    fn = hb.compile(source, { strict: false, noEscape: false })
    if (compiled.size >= MAX_CACHED) compiled.delete(compiled.keys().next().value!)
    compiled.set(source, fn)
  }
  return fn
}

/** The document's text: the template applied to the model, or the default document. */
export function htmlText(job: RenderJob): string {
  checkAborted(job.signal)
  if (!job.content) return defaultHtml(job)
  const source = job.content.toString('utf8').replace(/^\uFEFF/, '')
  try {
    return template(source)(htmlModel(job), {
      allowProtoPropertiesByDefault: false,
      allowProtoMethodsByDefault: false,
      allowCallsToHelperMissing: false,
    })
  } catch (error) {
    const message = (error as Error).message ?? String(error)
    throw new ReportError(`HTML template error: ${message}`)
  }
}

export async function renderHtml(job: RenderJob): Promise<RenderResult> {
  const html = htmlText(job)
  checkAborted(job.signal)
  return sized(Buffer.from(html, 'utf8'), job)
}
