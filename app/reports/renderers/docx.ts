/**
 * DOCX from an uploaded document in Jmix's syntax (reports-upstream 3.2), with docxtemplater +
 * pizzip: a table whose first row holds `##band=Name` repeats its first row with an unqualified
 * `${field}` once per instance of that band (found recursively; inside a repeated row of
 * another band, that instance's own descendants), `${Band.field}` in text is the band's first
 * instance, `${Root.alias}` a parameter. docx_jmix.ts turns the markers into docxtemplater row
 * loops; the parser here resolves every tag over own properties only, so `${constructor}` or
 * `${__proto__}` print nothing. Values print as `job.value(...).text`. Raw-XML tags (`${@x}`)
 * print nothing; `${#Band}...${/Band}` loops over a band's instances anywhere (an extension).
 */
import Docxtemplater from 'docxtemplater'
import PizZip from 'pizzip'
import { ReportError, type BandInstance, type RenderJob, type RenderResult } from '../types.js'
import { bandNames, checkAborted, firstInstance, instancesOf, own, sized } from './common.js'
import { translateJmixPart } from './docx_jmix.js'

const PARTS = /^word\/(document|header\d*|footer\d*|footnotes|endnotes)\.xml$/

/**
 * `${@x}` would insert raw XML (docxtemplater's rawxml module): this matcher outranks it and
 * makes such a tag a plain placeholder named `@x`, which prints nothing.
 */
const noRawXml = () => ({
  name: 'NoRawXml',
  matchers: () => [
    [
      '@',
      'mg-no-raw-xml',
      (values: string[]) => ({ module: null, value: `@${values[1]}`, priority: 1000 }),
    ],
  ],
})

interface Context {
  scopeList: unknown[]
}

export async function renderDocx(job: RenderJob): Promise<RenderResult> {
  if (!job.content) throw new ReportError('DOCX output needs a .docx template file')
  checkAborted(job.signal)
  let zip: PizZip
  try {
    zip = new PizZip(job.content)
  } catch (error) {
    throw new ReportError(`The DOCX template cannot be read: ${(error as Error).message}`)
  }
  const names = bandNames(job.layout)
  for (const path of Object.keys(zip.files)) {
    if (!PARTS.test(path)) continue
    const file = zip.file(path)
    if (!file) continue
    const { xml, tables } = translateJmixPart(file.asText(), names)
    if (tables.length) zip.file(path, xml)
  }
  let doc: Docxtemplater
  try {
    doc = new Docxtemplater(zip, {
      delimiters: { start: '${', end: '}' },
      syntax: { allowUnopenedTag: true, allowUnclosedTag: true },
      paragraphLoop: true,
      linebreaks: true,
      parser: bandParser(job, names),
      nullGetter: () => '',
      errorLogging: false,
      modules: [noRawXml() as unknown as Docxtemplater.DXT.Module],
    })
    doc.render({})
  } catch (error) {
    throw templateError(error)
  }
  checkAborted(job.signal)
  return sized(doc.toBuffer({ compression: 'DEFLATE' }), job)
}

/** docxtemplater's (multi) template error as a 400 with every explanation. */
function templateError(error: unknown): Error {
  if (error instanceof ReportError) return error
  const props = (error as { properties?: { errors?: unknown[]; explanation?: string } }).properties
  const list = (props?.errors ?? [error]) as {
    properties?: { explanation?: string }
    message?: string
  }[]
  const text = list.map((e) => e.properties?.explanation ?? e.message ?? String(e)).join('; ')
  return new ReportError(`DOCX template error: ${text || props?.explanation || String(error)}`)
}

/**
 * The docxtemplater parser over the band tree. Loop tags name a band; other tags are
 * `field` (the innermost band row, or Root outside tables), `Root.alias`, `Band.field`.
 */
function bandParser(job: RenderJob, names: ReadonlySet<string>) {
  const firsts = new Map<string, BandInstance | undefined>()
  const first = (band: string) => {
    if (!firsts.has(band)) firsts.set(band, firstInstance(job.root, band))
    return firsts.get(band)
  }
  const below = new Map<string, Set<string>>()
  const walk = (layout: RenderJob['layout']): Set<string> => {
    const all = new Set<string>()
    for (const band of layout) {
      const inner = walk(band.children)
      below.set(band.name, inner)
      all.add(band.name)
      for (const n of inner) all.add(n)
    }
    return all
  }
  walk(job.layout)
  const instances = new Set<BandInstance>()
  const nearest = (ctx: Context): BandInstance[] =>
    ctx.scopeList.filter((s): s is BandInstance => instances.has(s as BandInstance)).reverse()
  const print = (band: string, fields: Record<string, unknown> | undefined, field: string) =>
    job.value(band, field, own(fields as BandInstance['fields'] | undefined, field)).text

  return (tag: string, meta?: { tag?: { module?: string } }) => {
    const module = meta?.tag?.module
    const name = tag.trim()
    if (module === 'loop') {
      return {
        get: (_scope: unknown, ctx: Context) => {
          if (!names.has(name)) return []
          // Inside a row of an ancestor band: that row's own descendants; else every instance.
          const inner = nearest(ctx).find((i) => below.get(i.name)?.has(name))
          const rows = instancesOf(inner ?? job.root, name)
          for (const r of rows) instances.add(r)
          return rows
        },
      }
    }
    if (module) return { get: () => '' }
    return {
      get: (_scope: unknown, ctx: Context) => {
        const chain = nearest(ctx)
        const dot = name.indexOf('.')
        if (dot > 0) {
          const head = name.slice(0, dot)
          const rest = name.slice(dot + 1)
          if (head === 'Root') return print('Root', job.root.fields, rest)
          if (names.has(head)) {
            const inst = chain.find((i) => i.name === head) ?? first(head)
            return print(head, inst?.fields, rest)
          }
        }
        const inst = chain[0]
        return inst ? print(inst.name, inst.fields, name) : print('Root', job.root.fields, name)
      },
    }
  }
}
