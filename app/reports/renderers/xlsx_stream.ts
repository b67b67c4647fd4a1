/**
 * Streaming helpers of the XLSX renderer: the output stream (counts bytes and errors when
 * `maxOutputBytes` is passed), waiting for the reader (backpressure), sheet names, and the
 * exceljs streaming writer.
 */
import { Transform } from 'node:stream'
import type { TransformCallback } from 'node:stream'
import ExcelJS from 'exceljs'
import type { RenderJob } from '../types.js'
import { ReportError } from '../types.js'

const HIGH_WATER = 1 << 20

/** The stream handed to the HTTP layer: passes bytes through, refuses to grow past the limit. */
export class LimitedOutput extends Transform {
  bytes = 0

  constructor(private readonly max: number) {
    super({ highWaterMark: HIGH_WATER })
  }

  _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.bytes += chunk.length
    if (this.bytes > this.max) {
      done(new ReportError(`Report output exceeds ${this.max} bytes`, 413))
      return
    }
    done(null, chunk)
  }
}

export function abortError(): ReportError {
  return new ReportError('Report run cancelled', 503)
}

/** Lets the zip writer run, then waits while the reader has not taken what was written. */
export async function drain(out: LimitedOutput, signal: AbortSignal): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve))
  while (
    !out.destroyed &&
    !signal.aborted &&
    (out.writableNeedDrain || out.readableLength >= HIGH_WATER)
  ) {
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
  if (signal.aborted) throw abortError()
  if (out.destroyed) throw out.errored ?? new ReportError('Report output closed', 500)
}

export function streamingWriter(out: LimitedOutput): ExcelJS.stream.xlsx.WorkbookWriter {
  return new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: out,
    useStyles: true,
    useSharedStrings: false,
  })
}

/**
 * Starts `produce` writing into a fresh output stream and returns the stream at once; a
 * failure (limit, abort, engine error) errors the stream so the reader sees it.
 */
export function startStream(
  job: RenderJob,
  produce: (out: LimitedOutput) => Promise<void>
): LimitedOutput {
  const out = new LimitedOutput(job.maxOutputBytes)
  const onAbort = () => out.destroy(abortError())
  job.signal.addEventListener('abort', onAbort, { once: true })
  produce(out)
    .catch((error: unknown) => {
      if (!out.destroyed) out.destroy(error instanceof Error ? error : new Error(String(error)))
    })
    .finally(() => job.signal.removeEventListener('abort', onAbort))
  return out
}

/** A valid, unique worksheet name (Excel: 31 characters, no `[]:*?/\`, not quoted). */
export function sheetName(wanted: string, used: Set<string>): string {
  let base = wanted
    .replace(/[[\]:*?/\\]/g, '_')
    .replace(/^'+|'+$/g, '')
    .trim()
  if (!base || base === 'History') base = 'Sheet'
  base = base.slice(0, 31)
  let name = base
  for (let i = 2; used.has(name.toLowerCase()); i++) {
    const suffix = ` (${i})`
    name = base.slice(0, 31 - suffix.length) + suffix
  }
  used.add(name.toLowerCase())
  return name
}
