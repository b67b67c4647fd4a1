import { performance } from 'node:perf_hooks'
import { readFile } from 'node:fs/promises'
import { BaseCommand, flags } from '@adonisjs/core/ace'
import type { CommandOptions } from '@adonisjs/core/types/ace'
import { Engine } from '#engine/main'
import { migrate, DEMO_FILE } from '#start/bootstrap'
import { dropAllTables } from '#engine/schema/wipe'
import { definitions, type DefinitionResult } from '#definition/main'
import { generatedDocument } from './bench_import.js'

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]

/**
 * Plan and apply time of adding one attribute to an application, as the admin API does it:
 * the console's way (the whole current model with the attribute added, `prune` on the model)
 * and a script's way (a partial document naming only the entity and its new attribute). The
 * median of `rounds` runs each; every apply adds a new nullable attribute (ADD COLUMN).
 */
export default class BenchAdmin extends BaseCommand {
  static commandName = 'bench:admin'
  static description =
    'Benchmark: plan/apply of adding one attribute (demo app and a generated model) in an EMPTIED database'
  static options: CommandOptions = { startApp: true }

  @flags.number({ description: 'Entities of the generated model', default: 200 })
  declare entities: number

  @flags.number({ description: 'Runs per figure', default: 5 })
  declare rounds: number

  async run() {
    const db = await this.app.container.make('lucid.db')
    const database = db.connection().dialect.name
    const engine = await this.app.container.make(Engine)
    const defs = definitions(engine)
    const setup = async (document: unknown) => {
      await engine.stop()
      await dropAllTables(db.connection())
      await migrate(this.app)
      await engine.start()
      const result = await defs.importDocument(document)
      if (result.status !== 'applied') throw new Error(JSON.stringify(result.problems))
    }
    const demo = JSON.parse(await readFile(this.app.makePath(DEMO_FILE), 'utf8'))
    const generated = generatedDocument(this.entities, 20)
    for (const [label, document, entity] of [
      ['demo (15 entities)', demo, 'bookstore_Order'],
      [`${this.entities} entities x 20 attributes`, generated, `bench_Entity${this.entities >> 1}`],
    ] as const) {
      await setup(document)
      const figures: Record<string, number[]> = {}
      let n = 0
      const measure = async (name: string, fn: () => Promise<DefinitionResult>) => {
        const start = performance.now()
        const result = await fn()
        const ms = performance.now() - start
        if (!['applied', 'dry-run'].includes(result.status))
          throw new Error(`${name}: ${result.status} ${JSON.stringify(result.problems)}`)
        ;(figures[name] ??= []).push(ms)
      }
      for (let round = 0; round < this.rounds; round++) {
        for (const way of ['console', 'script'] as const) {
          const attribute = { name: `added${n++}`, type: 'string', length: 40 }
          const build = async () => {
            if (way === 'script')
              return { formatVersion: 1, entities: [{ name: entity, attributes: [attribute] }] }
            const current = (await defs.exportDocument()) as any
            const target = current.entities.find((e: any) => e.name === entity)
            target.attributes.push(attribute)
            const { enums, entities, fetchPlans } = current
            return { formatVersion: 1, enums, entities, fetchPlans }
          }
          const options = way === 'console' ? { pruneSections: ['model'] } : {}
          await measure(`${way} plan`, async () =>
            defs.importDocument(await build(), { ...options, dryRun: true })
          )
          await measure(`${way} apply`, async () => defs.importDocument(await build(), options))
        }
      }
      const line = Object.entries(figures)
        .map(([name, values]) => `${name} ${median(values).toFixed(0)} ms`)
        .join(', ')
      this.logger.log(`bench:admin ${database}, ${label}, median of ${this.rounds}: ${line}`)
    }
    await engine.stop()
  }
}
