/**
 * What every admin API controller shares: the error shape `{error, details, problems?}`, the
 * definition version as ETag / If-Match (412 on a stale one), the author of a change, the
 * query flags `dryRun` and `allowDataLoss`, and the mapping of a definition result to HTTP.
 */
import type { HttpContext } from '@adonisjs/core/http'
import engine from '#engine/services/engine'
import {
  definitions,
  type ApplyDefinitionOptions,
  type Author,
  type DefinitionResult,
} from '#definition/main'

export interface Problem {
  path: string
  message: string
}

export function adminError(
  ctx: HttpContext,
  status: number,
  error: string,
  details: string,
  extra: Record<string, unknown> = {}
) {
  ctx.response.status(status).json({ error, details, ...extra })
}

export const notFound = (ctx: HttpContext, what: string) =>
  adminError(ctx, 404, 'Not found', `${what} not found`)

/** 422 for a payload that is not what the endpoint takes (before any planning). */
export const invalidPayload = (ctx: HttpContext, problems: Problem[]) =>
  adminError(ctx, 422, 'Invalid definition', `${problems.length} problem(s); nothing was changed`, {
    problems,
  })

const tag = (version: number) => `"${version}"`

export async function sendVersion(ctx: HttpContext, version?: number) {
  ctx.response.header('ETag', tag(version ?? (await definitions(engine).version())))
}

/**
 * The version an `If-Match` header names: undefined without one (scripts may omit it) or for
 * `*`; NaN for anything that is not one of our tags (never equal: 412).
 */
export function expectedVersion(ctx: HttpContext): number | undefined {
  const header = ctx.request.header('if-match')
  if (header === undefined || header.trim() === '*') return undefined
  const match = /^\s*(?:W\/)?"(\d+)"\s*$/.exec(header) ?? /^\s*(\d+)\s*$/.exec(header)
  return match ? Number(match[1]) : Number.NaN
}

export function authorOf(ctx: HttpContext): Author {
  const subject = ctx.subject!
  if (subject.kind === 'user') return { kind: 'user', name: subject.username }
  if (subject.kind === 'client') return { kind: 'client', name: subject.clientId }
  return { kind: 'system', name: 'anonymous' }
}

const dryRunRequested = (ctx: HttpContext) =>
  flag(ctx, 'dryRun') || ctx.request.url().endsWith('/definition/plan')

function flag(ctx: HttpContext, name: string) {
  const value = ctx.request.qs()[name]
  return value === 'true' || value === '1' || value === ''
}

/** The options of a change made through the admin API. */
export function changeOptions(
  ctx: HttpContext,
  extra: Partial<ApplyDefinitionOptions> = {}
): ApplyDefinitionOptions {
  return {
    dryRun: flag(ctx, 'dryRun'),
    allowDataLoss: flag(ctx, 'allowDataLoss'),
    source: `admin-api ${ctx.request.method()} ${ctx.request.url()}`,
    author: authorOf(ctx),
    expectedVersion: expectedVersion(ctx),
    ...extra,
  }
}

/** Rewrites problem paths under `prefix` (`$.entities[3]`) to paths in the request body (`$`). */
export function rebase(problems: Problem[], prefix: string | undefined): Problem[] {
  if (!prefix) return problems
  return problems.map((p) =>
    p.path === prefix || p.path.startsWith(prefix + '.') || p.path.startsWith(prefix + '[')
      ? { ...p, path: '$' + p.path.slice(prefix.length) }
      : p
  )
}

export function describeResult(result: DefinitionResult) {
  return {
    status: result.status,
    changes: result.changes,
    steps: result.steps.map((s) => ({
      kind: s.kind,
      target: s.target,
      description: s.description,
      sql: s.sql,
    })),
    risks: result.risks,
    definitionVersion: result.definitionVersion,
    modelVersion: result.version,
    ...(result.auditId ? { auditId: result.auditId } : {}),
    ...(result.secrets ? { secrets: result.secrets } : {}),
  }
}

/**
 * Answers a change: 200 with the plan (dry run) or the outcome, 201 for a created element,
 * 422 with every problem, 409 naming the data-loss risks or the database's refusal, 412 for a
 * stale If-Match. Returns true when the change went through (or was planned).
 */
export function sendResult(
  ctx: HttpContext,
  result: DefinitionResult,
  options: { prefix?: string; created?: boolean; extra?: Record<string, unknown> } = {}
): boolean {
  ctx.response.header('ETag', tag(result.definitionVersion))
  switch (result.status) {
    case 'invalid':
      invalidPayload(ctx, rebase(result.problems, options.prefix))
      return false
    case 'refused':
      // A plan that finds risks is a successful plan: it shows them (apply refuses them).
      if (dryRunRequested(ctx)) {
        ctx.response.status(200).json(describeResult(result))
        return true
      }
      adminError(
        ctx,
        409,
        'Data loss',
        'the change would lose data; nothing was changed (allowDataLoss=true accepts the overridable risks)',
        { risks: result.refusals, steps: describeResult(result).steps }
      )
      return false
    case 'failed':
      adminError(ctx, 409, 'Change failed', result.problems.map((p) => p.message).join('; '), {
        problems: result.problems,
      })
      return false
    case 'stale':
      adminError(
        ctx,
        412,
        'Precondition failed',
        `the definition changed since the version in If-Match (now ${result.definitionVersion}); reload and retry`
      )
      return false
  }
  const status = options.created && result.status === 'applied' ? 201 : 200
  ctx.response.status(status).json({ ...describeResult(result), ...options.extra })
  return true
}
