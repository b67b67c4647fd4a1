import { performance } from 'node:perf_hooks'
import { BaseCommand, flags } from '@adonisjs/core/ace'
import type { CommandOptions } from '@adonisjs/core/types/ace'
import { Engine } from '#engine/main'
import { migrate } from '#start/bootstrap'
import { dropAllTables } from '#engine/schema/wipe'
import { definitions } from '#definition/main'

const entity = (attributes: object[]) => ({
  formatVersion: 1,
  entities: [
    {
      name: 'bench_Big',
      attributes: [{ name: 'label', type: 'string', length: 40 }, ...attributes],
    },
  ],
})

export default class BenchAddColumn extends BaseCommand {
  static commandName = 'bench:add-column'
  static description =
    'Benchmark: add a nullable attribute to a table of N rows in an EMPTIED database (drops every table!)'
  static options: CommandOptions = { startApp: true }

  @flags.number({ description: 'Rows in the table', default: 1_000_000 })
  declare rows: number

  async run() {
    const db = await this.app.container.make('lucid.db')
    const client = db.connection()
    const pg = client.dialect.name === 'postgres'
    await dropAllTables(db.connection())
    await migrate(this.app)
    const engine = await this.app.container.make(Engine)
    await engine.start()
    await definitions(engine).importDocument(entity([]))

    const fillStart = performance.now()
    if (pg) {
      await client.rawQuery(
        `insert into bench_big (id, label) select gen_random_uuid(), 'row ' || g from generate_series(1, ?) g`,
        [this.rows]
      )
    } else {
      await client.rawQuery(
        `with recursive g(n) as (select 1 union all select n + 1 from g where n < ?)
         insert into bench_big (id, label) select lower(hex(randomblob(16))), 'row ' || n from g`,
        [this.rows]
      )
    }
    const fillMs = performance.now() - fillStart
    const fileNode = async () =>
      pg ? (await client.rawQuery(`select pg_relation_filenode('bench_big') as n`)).rows[0].n : null

    const before = await fileNode()
    const start = performance.now()
    const result = await definitions(engine).importDocument(
      entity([{ name: 'note', type: 'string', length: 200 }])
    )
    const ms = performance.now() - start
    const after = await fileNode()
    const [{ total }] = await client.from('bench_big').count('* as total')
    this.logger.log(
      `bench:add-column on ${pg ? 'pg' : 'sqlite'}: ${Number(total).toLocaleString('en')} rows (filled in ${fillMs.toFixed(0)} ms)`
    )
    this.logger.log(
      `  add nullable attribute: ${ms.toFixed(0)} ms (${result.status}; SQL: ${result.steps.flatMap((s) => s.sql).join('; ')})`
    )
    if (pg)
      this.logger.log(
        `  table rewritten: ${before === after ? 'no' : 'YES'} (relfilenode ${before} -> ${after})`
      )
    this.logger.log(
      `  target: under 1000 ms without a rewrite -> ${ms < 1000 && before === after ? 'met' : 'NOT met'}`
    )
    await engine.stop()
  }
}
