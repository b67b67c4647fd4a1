/**
 * Fixtures of the value format tests (entities_values*.spec.ts): one entity with every
 * temporal datatype, decimals of three scales and constrained strings, a client-credentials
 * token, requests, and the stored values read back as text on either database.
 */
import db from '@adonisjs/lucid/services/db'
import { resetDatabase, dialect } from '#tests/helpers/database'
import { applyDoc } from '#tests/helpers/engine'
import { accessToken, makeClient, sendJson } from '#tests/helpers/resource_server'

export const S = '/rest/entities/vt_Sample'
export const TABLE = 'vt_sample'
let token = ''

export const sampleEntity = (overrides: Record<string, string> = {}) => ({
  name: 'vt_Sample',
  idType: 'uuid',
  instanceName: 'title',
  attributes: [
    { name: 'title', type: 'string', length: 10 },
    { name: 'tag', type: 'string', length: 40 },
    { name: 'note', type: 'text' },
    { name: 'code', type: 'string', length: 20, pattern: '^[0-9]+$' },
    { name: 'onDay', type: overrides.onDay ?? 'date' },
    { name: 'atTime', type: 'time' },
    { name: 'stamp', type: 'dateTime' },
    { name: 'instant', type: 'offsetDateTime' },
    { name: 'price', type: 'decimal', precision: 6, scale: 2 },
    { name: 'rate', type: 'decimal', precision: 12, scale: 4 },
    { name: 'whole', type: 'decimal', precision: 5, scale: 0 },
    { name: 'ref', type: 'uuid' },
    { name: 'flag', type: 'boolean' },
    { name: 'qty', type: 'int' },
  ],
})

export async function loadValuesModel() {
  await resetDatabase()
  await applyDoc({ entities: [sampleEntity()] })
  token = (await accessToken(await makeClient())).token
}

export function send(method: string, path: string, body?: unknown) {
  return sendJson(token, method, path, body)
}

/** Creates rows (tag = `tag`, title = the key) and returns their ids by title. */
export async function seed(tag: string, rows: Record<string, Record<string, unknown>>) {
  const ids: Record<string, string> = {}
  for (const [title, values] of Object.entries(rows)) {
    const response = await send('POST', S, { title, tag, ...values })
    if (response.status !== 201) throw new Error(`seed ${title}: ${response.text}`)
    ids[title] = response.body.id
  }
  return ids
}

/** Titles of the rows with `tag` matching one condition, in `sort` order (default title). */
export async function titles(tag: string, property: string, operator: string, value: unknown) {
  const conditions = [
    { property: 'tag', operator: '=', value: tag },
    { property, operator, value },
  ]
  const response = await send('POST', `${S}/search`, { filter: { conditions }, sort: 'title' })
  if (response.status !== 200) throw new Error(`${operator} ${value}: ${response.text}`)
  return response.body.map((r: any) => r.title)
}

/** Every column of a row as text, as the database holds it (CAST works on both). */
export async function stored(id: string): Promise<Record<string, string | null>> {
  const columns = ['title', 'code', 'on_day', 'at_time', 'stamp', 'instant', 'price', 'rate']
  const select = columns.map((c) => `CAST("${c}" AS TEXT) AS "${c}"`).join(', ')
  const result = await db.rawQuery(`SELECT ${select} FROM "${TABLE}" WHERE id = ?`, [id])
  return dialect() === 'pg' ? result.rows[0] : result[0]
}

export const rowCount = async () => Number((await db.from(TABLE).count('* as n').first())?.n ?? 0)

/** The upstream 400 of a value the deserializer refuses. */
export const cannotDeserialize = 'Cannot deserialize an entity from JSON'
