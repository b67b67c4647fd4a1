/**
 * What the renderers share: walking the band tree (own properties only), the output size limit
 * for buffered and streamed results, and the error a too-large document answers.
 */
import { Transform, type TransformCallback } from 'node:stream'
import { ReportError, type BandInstance, type BandLayout, type RenderJob } from '../types.js'

export const own = <T>(record: Record<string, T> | undefined, key: string): T | undefined =>
  record && Object.hasOwn(record, key) ? record[key] : undefined

/** Every band name of the layout tree (Root excluded). */
export function bandNames(layout: BandLayout[], into = new Set<string>()): Set<string> {
  for (const band of layout) {
    into.add(band.name)
    bandNames(band.children, into)
  }
  return into
}

/** Every instance of band `name` below `from`, depth first in document order (Jmix's findBandsRecursively). */
export function instancesOf(from: BandInstance, name: string): BandInstance[] {
  const out: BandInstance[] = []
  const visit = (instance: BandInstance) => {
    for (const key of Object.keys(instance.bands)) {
      const children = instance.bands[key]
      if (!Array.isArray(children)) continue
      for (const child of children) {
        if (key === name) out.push(child)
        visit(child)
      }
    }
  }
  visit(from)
  return out
}

/** The first instance of band `name` anywhere below `from`, or undefined. */
export function firstInstance(from: BandInstance, name: string): BandInstance | undefined {
  for (const key of Object.keys(from.bands)) {
    const children = from.bands[key]
    if (!Array.isArray(children)) continue
    for (const child of children) {
      if (key === name) return child
      const deeper = firstInstance(child, name)
      if (deeper) return deeper
    }
  }
  return undefined
}

export function tooLarge(limit: number): ReportError {
  return new ReportError(`The report output exceeds the limit of ${limit} bytes`, 413)
}

/** A whole document, refused with 413 when it is larger than the run allows. */
export function sized(body: Buffer, job: RenderJob): { body: Buffer } {
  if (body.length > job.maxOutputBytes) throw tooLarge(job.maxOutputBytes)
  return { body }
}

/** Passes bytes through and fails the stream (413) once more than `limit` went by. */
export function byteLimit(limit: number): Transform {
  let seen = 0
  return new Transform({
    transform(chunk: Buffer | string, _enc: BufferEncoding, done: TransformCallback) {
      const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk
      seen += buf.length
      if (seen > limit) return done(tooLarge(limit))
      done(null, buf)
    },
  })
}

/** Throws the abort reason when the run was cancelled (time limit, client gone). */
export function checkAborted(signal: AbortSignal): void {
  if (signal.aborted) throw abortError(signal)
}

export function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason
  return reason instanceof Error ? reason : new ReportError('The report run was cancelled', 500)
}
