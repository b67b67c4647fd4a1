import { BaseCommand, args, flags } from '@adonisjs/core/ace'
import type { CommandOptions } from '@adonisjs/core/types/ace'
import { Engine } from '#engine/main'
import { definitions, type ImportResult } from '#definition/main'
import { migrate } from '#start/bootstrap'
import { announceDatabase } from '#cli/database_note'

export default class AppImport extends BaseCommand {
  static commandName = 'app:import'
  static description =
    'Apply an application definition document (JSON or YAML): prints the planned changes and SQL, applies them atomically'
  static options: CommandOptions = { startApp: true }

  @args.string({ description: 'Path of the definition document (.json, .yaml or .yml)' })
  declare file: string

  @flags.boolean({ description: 'Plan and check only; change nothing', flagName: 'dry-run' })
  declare dryRun: boolean

  @flags.boolean({
    description: 'Allow changes that delete data (dropped columns and tables, narrowing)',
    flagName: 'allow-data-loss',
  })
  declare allowDataLoss: boolean

  async run() {
    await migrate(this.app)
    await announceDatabase(this.app)
    const engine = await this.app.container.make(Engine)
    await engine.start()
    const result = await definitions(engine).importFile(this.app.makePath(this.file), {
      author: { kind: 'system', name: 'app:import' },
      dryRun: this.dryRun,
      allowDataLoss: this.allowDataLoss,
      onProgress: (message) => this.logger.info(message),
    })
    printResult(this, result)
    await engine.stop()
    if (['invalid', 'refused', 'failed'].includes(result.status)) this.exitCode = 1
  }
}

export function printResult(command: BaseCommand, result: ImportResult) {
  const { logger, ui } = command
  for (const p of result.problems) logger.error(`${p.path}: ${p.message}`)
  for (const r of result.refusals) {
    logger.error(
      `refused: ${r.message}${r.overridable ? ' (use --allow-data-loss to accept)' : ''}`
    )
  }
  if (result.status === 'invalid')
    return logger.error(`${result.problems.length} problem(s); nothing was changed`)
  if (result.status === 'refused' || result.status === 'failed') {
    return logger.error('nothing was changed')
  }
  for (const change of result.changes) logger.info(`change: ${change}`)
  for (const step of result.steps) {
    logger.info(ui.colors.cyan(step.description))
    for (const sql of step.sql) logger.log(`  ${sql};`)
  }
  const summary = `${result.changes.length} change(s), ${result.steps.length} schema step(s)`
  if (result.status === 'dry-run') logger.info(`dry run: ${summary}; nothing was changed`)
  else if (result.status === 'unchanged')
    logger.info('no changes: the database already matches the document')
  else logger.success(`applied ${summary}; model version ${result.version}`)
  for (const s of result.secrets ?? []) {
    // Printed once: only the digest is stored.
    logger.warning(
      `generated secret of client '${s.clientId}' (${s.path}), shown only now: ${s.secret}`
    )
  }
}
