/**
 * JSON: the band tree as `{"Root": {"fields": {...}, "bands": {"Orders": [{"fields", "bands"}]}}}`
 * with the raw values (as the REST API writes them, no value formats), buffered (the tree is in
 * memory already), refused with 413 above the run's output limit.
 */
import type { BandInstance, RenderJob, RenderResult } from '../types.js'
import { checkAborted, sized } from './common.js'

interface JsonBand {
  fields: BandInstance['fields']
  bands: Record<string, JsonBand[]>
}

function tree(instance: BandInstance): JsonBand {
  const bands: Record<string, JsonBand[]> = {}
  for (const key of Object.keys(instance.bands)) {
    const rows = instance.bands[key]
    Object.defineProperty(bands, key, {
      value: Array.isArray(rows) ? rows.map(tree) : [],
      enumerable: true,
      writable: true,
      configurable: true,
    })
  }
  return { fields: instance.fields, bands }
}

export async function renderJson(job: RenderJob): Promise<RenderResult> {
  checkAborted(job.signal)
  const body = Buffer.from(JSON.stringify({ Root: tree(job.root) }), 'utf8')
  return sized(body, job)
}
