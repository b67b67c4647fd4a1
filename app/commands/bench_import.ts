import { performance } from 'node:perf_hooks'
import { BaseCommand, flags } from '@adonisjs/core/ace'
import type { CommandOptions } from '@adonisjs/core/types/ace'
import { Engine } from '#engine/main'
import { migrate } from '#start/bootstrap'
import { dropAllTables } from '#engine/schema/wipe'
import { definitions } from '#definition/main'

const TYPES = [
  'string',
  'text',
  'int',
  'long',
  'decimal',
  'boolean',
  'date',
  'dateTime',
  'uuid',
  'double',
]

/** A generated document: `entities` x `attributes`, each entity linked to the previous one. */
export function generatedDocument(entities: number, attributes: number) {
  return {
    formatVersion: 1,
    entities: Array.from({ length: entities }, (_, i) => ({
      name: `bench_Entity${i}`,
      traits: i % 2 ? ['versioned', 'audited'] : [],
      attributes: Array.from({ length: attributes }, (__, j) =>
        j === 0 && i > 0
          ? {
              name: 'parent',
              type: 'association',
              cardinality: 'MANY_TO_ONE',
              target: `bench_Entity${i - 1}`,
            }
          : {
              name: `field${j}`,
              type: TYPES[j % TYPES.length],
              ...(j % TYPES.length === 0 ? { length: 100 } : {}),
            }
      ),
    })),
  }
}

export default class BenchImport extends BaseCommand {
  static commandName = 'bench:import'
  static description =
    'Benchmark: import N entities x M attributes into an EMPTIED database (drops every table!)'
  static options: CommandOptions = { startApp: true }

  @flags.number({ description: 'Entities', default: 200 })
  declare entities: number

  @flags.number({ description: 'Attributes per entity', default: 20 })
  declare attributes: number

  async run() {
    const db = await this.app.container.make('lucid.db')
    const database = db.connection().dialect.name
    await dropAllTables(db.connection())
    await migrate(this.app)
    const engine = await this.app.container.make(Engine)
    await engine.start()
    const doc = generatedDocument(this.entities, this.attributes)
    const time = async (fn: () => Promise<unknown>) => {
      const start = performance.now()
      const value = await fn()
      return { ms: performance.now() - start, value }
    }
    const dry = await time(() => definitions(engine).importDocument(doc, { dryRun: true }))
    const apply = await time(() => definitions(engine).importDocument(doc))
    const again = await time(() => definitions(engine).importDocument(doc))
    const exported = await time(() => definitions(engine).exportDocument())
    const roundTrip = await time(() => definitions(engine).importDocument(exported.value))
    const status = (r: any) => `${r.status}, ${r.steps.length} steps`
    this.logger.log(
      `bench:import ${this.entities} entities x ${this.attributes} attributes on ${database}`
    )
    this.logger.log(
      `  dry run (validate + plan + guard): ${dry.ms.toFixed(0)} ms (${status(dry.value)})`
    )
    this.logger.log(
      `  apply (DDL + rows, one transaction): ${apply.ms.toFixed(0)} ms (${status(apply.value)})`
    )
    this.logger.log(`  re-import, no change: ${again.ms.toFixed(0)} ms (${status(again.value)})`)
    this.logger.log(
      `  export: ${exported.ms.toFixed(0)} ms; import of the export: ${roundTrip.ms.toFixed(0)} ms (${status(roundTrip.value)})`
    )
    await engine.stop()
  }
}
