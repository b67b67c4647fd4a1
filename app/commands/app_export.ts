import { writeFile } from 'node:fs/promises'
import { BaseCommand, flags } from '@adonisjs/core/ace'
import type { CommandOptions } from '@adonisjs/core/types/ace'
import { Engine } from '#engine/main'
import { definitions, formatOf, renderDocument } from '#definition/main'
import { migrate } from '#start/bootstrap'
import { announceDatabase } from '#cli/database_note'

export default class AppExport extends BaseCommand {
  static commandName = 'app:export'
  static description =
    'Write the current application as a definition document (JSON, or YAML for .yaml/.yml)'
  static options: CommandOptions = { startApp: true }

  @flags.string({ description: 'Output file (default: standard output, JSON)' })
  declare out?: string

  @flags.string({ description: 'json or yaml (default: from the --out extension)' })
  declare format?: string

  async run() {
    await migrate(this.app)
    await announceDatabase(this.app)
    const engine = await this.app.container.make(Engine)
    const document = await definitions(engine).exportDocument()
    const format =
      this.format === 'yaml' || this.format === 'json'
        ? this.format
        : this.out
          ? formatOf(this.out)
          : 'json'
    const text = renderDocument(document, format)
    if (this.out) {
      await writeFile(this.app.makePath(this.out), text)
      this.logger.success(`exported to ${this.out}`)
    } else {
      process.stdout.write(text)
    }
  }
}
