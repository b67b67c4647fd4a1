/**
 * The execution history (`mg_report_executions`): who ran which report with which parameters,
 * when, how long it took, how big the document was, and the outcome. Written after the
 * document was sent (or failed); never holds the document itself.
 */
import type { QueryClientContract } from '@adonisjs/lucid/types/database'

export interface Execution {
  reportId: string | null
  reportName: string
  template: string | null
  outputType: string | null
  username: string
  source: 'rest' | 'admin'
  startedAt: Date
  durationMs: number
  sizeBytes: number | null
  rows: number | null
  parameters: unknown
  outcome: 'success' | 'error' | 'refused'
  error: string | null
}

const PARAMETERS_MAX = 4000

export async function recordExecution(client: QueryClientContract, e: Execution) {
  const parameters = e.parameters === undefined ? null : JSON.stringify(e.parameters)
  await client.table('mg_report_executions').insert({
    report_id: e.reportId,
    report_name: e.reportName.slice(0, 255),
    template: e.template,
    output_type: e.outputType,
    username: e.username.slice(0, 255),
    source: e.source,
    started_at: e.startedAt,
    duration_ms: Math.round(e.durationMs),
    size_bytes: e.sizeBytes,
    rows: e.rows,
    parameters:
      parameters && parameters.length > PARAMETERS_MAX
        ? parameters.slice(0, PARAMETERS_MAX)
        : parameters,
    outcome: e.outcome,
    error: e.error ? e.error.slice(0, 2000) : null,
  })
}

/** Newest first; `report` filters by report id. */
export async function listExecutions(client: QueryClientContract, report?: string, limit = 200) {
  const query = client
    .from('mg_report_executions')
    .orderBy('id', 'desc')
    .limit(Math.min(limit, 1000))
  if (report) query.where('report_id', report)
  const rows = await query.select('*')
  return rows.map((r: any) => ({
    id: r.id,
    reportId: r.report_id,
    reportName: r.report_name,
    template: r.template,
    outputType: r.output_type,
    user: r.username,
    source: r.source,
    startedAt: new Date(r.started_at).toISOString(),
    durationMs: Number(r.duration_ms),
    sizeBytes: r.size_bytes === null ? null : Number(r.size_bytes),
    rows: r.rows === null ? null : Number(r.rows),
    parameters: r.parameters ? safeParse(r.parameters) : null,
    outcome: r.outcome,
    error: r.error,
  }))
}

/** The last run of every report that ran (however long the history): id -> {startedAt, outcome}. */
export async function lastRuns(client: QueryClientContract) {
  const latest = await client
    .from('mg_report_executions')
    .whereNotNull('report_id')
    .groupBy('report_id')
    .max('id as id')
  const ids = latest.map((r: any) => Number(r.id))
  const rows = ids.length
    ? await client.from('mg_report_executions').whereIn('id', ids).select('*')
    : []
  return new Map<string, { startedAt: string; outcome: string }>(
    rows.map((r: any) => [
      r.report_id,
      { startedAt: new Date(r.started_at).toISOString(), outcome: r.outcome },
    ])
  )
}

function safeParse(text: string) {
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}
