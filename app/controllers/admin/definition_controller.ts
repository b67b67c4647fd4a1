import type { HttpContext } from '@adonisjs/core/http'
import engine from '#engine/services/engine'
import { definitions, parseDocumentText, renderDocument } from '#definition/main'
import { adminError, changeOptions, invalidPayload, sendResult, sendVersion } from './admin_http.js'

const YAML_TYPES = ['application/yaml', 'application/x-yaml', 'text/yaml', 'text/x-yaml']

function wantsYaml(ctx: HttpContext) {
  const accept = (ctx.request.header('accept') ?? '').toLowerCase()
  return YAML_TYPES.some((t) => accept.includes(t)) || ctx.request.qs().format === 'yaml'
}

/** The posted document: JSON (parsed by the body parser) or YAML (raw body). */
function postedDocument(ctx: HttpContext): { raw?: unknown; error?: string } {
  const type = (ctx.request.header('content-type') ?? '').split(';')[0].trim().toLowerCase()
  if (YAML_TYPES.includes(type)) {
    try {
      return { raw: parseDocumentText(ctx.request.raw() ?? '', 'yaml') }
    } catch (error) {
      return { error: `not valid YAML: ${(error as Error).message}` }
    }
  }
  return { raw: ctx.request.body() }
}

/**
 * The definition as a whole (README, "Admin API"): export, plan (a dry run of a posted
 * document) and apply, with the CLI's semantics (partial documents, `prune`).
 */
export default class DefinitionController {
  async show(ctx: HttpContext) {
    const document = await definitions(engine).exportDocument()
    await sendVersion(ctx)
    if (!wantsYaml(ctx)) return document
    ctx.response.header('Content-Type', 'application/yaml; charset=utf-8')
    return renderDocument(document, 'yaml')
  }

  plan(ctx: HttpContext) {
    return this.#change(ctx, true)
  }

  apply(ctx: HttpContext) {
    return this.#change(ctx, false)
  }

  async #change(ctx: HttpContext, dryRun: boolean) {
    const posted = postedDocument(ctx)
    if (posted.error) return invalidPayload(ctx, [{ path: '$', message: posted.error }])
    if (posted.raw === undefined || posted.raw === null)
      return adminError(ctx, 400, 'Bad request', 'the body must be a definition document')
    const result = await definitions(engine).importDocument(
      posted.raw,
      changeOptions(ctx, dryRun ? { dryRun: true } : {})
    )
    sendResult(ctx, result)
  }
}
