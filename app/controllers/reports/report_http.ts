import { Transform } from 'node:stream'
import type { HttpContext } from '@adonisjs/core/http'
import logger from '@adonisjs/core/services/logger'
import db from '@adonisjs/lucid/services/db'
import engine from '#engine/services/engine'
import type { DataManager } from '#engine/data/data_manager'
import { DataError } from '#engine/data/errors'
import { lenientBody, malformedDetails } from '#middleware/lenient_json_middleware'
import { recordExecution, type Execution } from '#reports/history'
import { runLimits, runReport, type RunBody } from '#reports/run'
import { ReportError, type ReportDefinition } from '#reports/types'
import type { Subject } from '#security/subject'
import { resolveLocale } from '#i18n/main'

/** The run body (reference 11.4): optional JSON object; invalid JSON is 400 `Invalid JSON body`. */
export function runBody(ctx: HttpContext): RunBody | null {
  const read = lenientBody(ctx)
  // Outside /rest (the admin API's run) the body parser has read the JSON already.
  if (!read) return (ctx.request.body() ?? {}) as RunBody
  if (read.raw.trim() === '') return {}
  const body = read.body
  if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) {
    const details = body === undefined ? malformedDetails(read) : 'A JSON object was expected'
    ctx.response.status(400).json({ error: 'Invalid JSON body', details })
    return null
  }
  return body as RunBody
}

export const usernameOf = (subject: Subject) =>
  subject.kind === 'client' ? `client:${subject.clientId}` : subject.username

/** Java's URLEncoder (upstream's Content-Disposition file name): spaces become `+`. */
export const javaUrlEncode = (text: string) =>
  encodeURIComponent(text)
    .replace(/%20/g, '+')
    .replace(/[!'()~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)

function errorOf(error: unknown): { status: number; body: { error: string; details: string } } {
  if (error instanceof ReportError)
    return { status: error.status, body: { error: error.error, details: error.message } }
  if (error instanceof DataError) return { status: error.status, body: error.toJSON() as any }
  logger.error({ err: error }, 'report run failed')
  return { status: 500, body: { error: 'Run report error', details: 'Internal error' } }
}

/**
 * Runs `report` as `data`'s subject and sends the document (reference 11.4 headers), or the
 * error; either way the run lands in the execution history.
 */
export async function sendRun(
  ctx: HttpContext,
  data: DataManager,
  report: ReportDefinition,
  source: Execution['source']
) {
  const body = runBody(ctx)
  if (!body) return
  const startedAt = new Date()
  const base = {
    reportId: report.id,
    reportName: report.name,
    username: usernameOf(data.context.subject),
    source,
    startedAt,
    parameters: body.parameters,
  }
  const record = (e: Partial<Execution>) =>
    recordExecution(db.connection(), {
      template: null,
      outputType: null,
      sizeBytes: null,
      rows: null,
      error: null,
      outcome: 'success',
      ...base,
      durationMs: Date.now() - startedAt.getTime(),
      ...e,
    }).catch((error) => logger.warn({ err: error }, 'report history not written'))
  let run
  try {
    run = await runReport({
      data,
      db,
      report,
      body,
      limits: runLimits((name) => engine.properties.get(name)),
      locale: resolveLocale(ctx),
    })
  } catch (error) {
    const { status, body: errorBody } = errorOf(error)
    await record({ outcome: status < 500 ? 'refused' : 'error', error: errorBody.details })
    return ctx.response.status(status).json(errorBody)
  }
  const done = { template: run.template.code, outputType: run.template.outputType, rows: run.rows }
  const disposition = `${run.attachment ? 'attachment' : 'inline'}; filename="${javaUrlEncode(run.fileName)}"`
  ctx.response.header('Content-Type', run.contentType)
  ctx.response.header('Content-Disposition', disposition)
  ctx.response.header('Cache-Control', 'no-cache')
  ctx.response.header('Pragma', 'no-cache')
  ctx.response.header('Expires', '0')
  if ('body' in run.result) {
    await record({ ...done, sizeBytes: run.result.body.length })
    return ctx.response.status(200).send(run.result.body)
  }
  // Counted inside the pipe: a 'data' listener would start the flow before the response reads.
  let size = 0
  const counted = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      size += chunk.length
      callback(null, chunk)
    },
  })
  run.result.stream.on('error', (error) => {
    void record({ ...done, sizeBytes: size, outcome: 'error', error: errorOf(error).body.details })
    counted.destroy(error)
  })
  counted.on('end', () => void record({ ...done, sizeBytes: size }))
  // An error before the first byte is still an answer (413, 503...); after it, the transfer is
  // aborted (the framework destroys the socket): never a complete-looking partial file.
  ctx.response.status(200).stream(run.result.stream.pipe(counted), (error) => {
    const refusal = errorOf(error)
    for (const name of ['Content-Disposition', 'Pragma', 'Expires']) {
      ctx.response.removeHeader(name)
      ctx.response.response.removeHeader(name)
    }
    ctx.response.header('Content-Type', 'application/json; charset=utf-8')
    return [JSON.stringify(refusal.body), refusal.status]
  })
}
