/**
 * `startsWith` on an indexed string attribute: whatever makes it use an index (PostgreSQL's
 * companion `lower(col) text_pattern_ops` index, the code-point range of `startsWithRange`),
 * the API answers exactly what `lower(col) LIKE lower(escaped prefix || '%') ESCAPE '\'` answers
 * (the meaning the LIKE tests of entities_read_search.spec.ts fix), for awkward prefixes: LIKE
 * wildcards and the escape character, the empty prefix, mixed case, non-ASCII (folded by
 * PostgreSQL's Unicode-aware lower(), exact in SQLite), the largest code point, astral
 * characters. Then: the index really is usable.
 */
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { dialect } from '#tests/helpers/database'
import { applyDoc } from '#tests/helpers/engine'
import { E, loadDemo, post, uuid } from '#tests/helpers/entities_read'
import { likePattern } from '#engine/query/operators/like'
import { prefixRangeFolding, startsWithRange } from '#engine/schema/dialects/text_search'
import { observeStatements } from '#tests/helpers/statements'

const MAX = '\u{10FFFF}'
const WORDS = [
  'abc',
  'ABC',
  'Abd',
  'aBz',
  'ab',
  'a',
  'ac',
  'B',
  'b',
  'a%b',
  'a%c',
  'a_b',
  'axb',
  'a\\b',
  'a\\c',
  '%',
  '_x',
  '\\',
  '\u00e9t\u00e9', // été
  '\u00c9t\u00e9', // Été
  '\u00e9cole',
  'Kelvin',
  '\u212aelvin', // Kelvin sign
  'kilo',
  '\u0130stanbul', // İstanbul
  'istanbul',
  `z${MAX}`,
  `z${MAX}a`,
  `Z${MAX}b`,
  '{',
  'z',
  '\u{1f600}x',
  '\u{1f601}',
  '\ud7ffa',
  '\ue000',
  '0123',
  '012',
  '',
]
const PREFIXES = [
  '',
  'a',
  'A',
  'ab',
  'aB',
  'a%',
  'a_',
  'a\\',
  '%',
  '_',
  '\\',
  '\u00e9',
  '\u00c9T',
  'k',
  'K',
  'i',
  'I',
  'z',
  `z${MAX}`,
  `Z${MAX}`,
  MAX,
  '\u{1f600}',
  '\ud7ff',
  '01',
  'nothing',
]

const ENTITY = 'lab_Word'
const TABLE = 'lab_word'

/** What the database itself answers for the LIKE alone (the meaning to keep), sorted as asked. */
async function reference(prefix: string, limit?: number, sort = 'text'): Promise<string[]> {
  const query = db
    .from(TABLE)
    .select('text')
    .whereRaw(`lower(??) like lower(?) escape ?`, [
      'text',
      likePattern({ match: 'startsWith', value: prefix }),
      '\\',
    ])
    .orderBy(sort)
    .orderBy('id')
  if (limit) query.limit(limit)
  return (await query).map((r: { text: string }) => r.text)
}

async function search(prefix: string, limit?: number, sort = 'text'): Promise<string[]> {
  const response = await post(`${E}/${ENTITY}/search`, {
    filter: { conditions: [{ property: 'text', operator: 'startsWith', value: prefix }] },
    sort,
    ...(limit ? { limit } : {}),
  })
  if (response.status !== 200) throw new Error(`${response.status} ${response.text}`)
  return response.body.map((w: { text?: string }) => w.text ?? '')
}

const byCodePoint = (values: string[]) =>
  [...values].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)))

test.group('Entities API: startsWith on an indexed string', (group) => {
  group.setup(async () => {
    await loadDemo()
    await applyDoc({
      entities: [
        {
          name: ENTITY,
          attributes: [
            { name: 'text', type: 'string', length: 40 },
            { name: 'n', type: 'int' },
          ],
          indexes: [{ attributes: ['text'] }],
        },
      ],
    })
    await db.table(TABLE).multiInsert(WORDS.map((text, i) => ({ id: uuid(77, i + 1), text, n: i })))
    await db.table(TABLE).insert({ id: uuid(77, 999), text: null, n: -1 })
    // The range needs the probe of the connection (done once, on first use, in the server).
    await prefixRangeFolding(db.connection())
  })

  test('the same rows as the LIKE alone, for every awkward prefix', async ({ assert }) => {
    for (const prefix of PREFIXES) {
      const expected = await reference(prefix)
      assert.deepEqual(await search(prefix), expected, `prefix ${JSON.stringify(prefix)}`)
      assert.deepEqual(await search(prefix, 2), await reference(prefix, 2), `limit 2 ${prefix}`)
    }
  })

  test('sorted by another attribute: the same rows (SQLite: one exact range per case)', async ({
    assert,
  }) => {
    for (const prefix of PREFIXES) {
      const expected = await reference(prefix, undefined, 'n')
      assert.deepEqual(await search(prefix, undefined, 'n'), expected, `prefix ${prefix}`)
      assert.deepEqual(await search(prefix, 3, 'n'), expected.slice(0, 3), `limit 3 ${prefix}`)
    }
    if (dialect() !== 'sqlite') return
    // The statements: sorted by `n`, the case variants of `aB` as four OR-ed exact ranges (a
    // selective prefix reads only its rows); sorted by `text`, the one range in index order.
    const statements = async (sort: string) =>
      (await observeStatements(() => search('aB', undefined, sort)))
        .map((s) => s.sql)
        .filter((sql) => sql.includes(TABLE))
    const [byN] = await statements('n')
    assert.lengthOf(byN.match(/`t0`.`text` >= \?/g) ?? [], 4)
    assert.lengthOf(byN.match(/`t0`.`text` < \?/g) ?? [], 4)
    const [byText] = await statements('text')
    assert.lengthOf(byText.match(/`t0`.`text` >= \?/g) ?? [], 1)
  })

  test('meaning: case-insensitive, wildcards literal, non-ASCII per dialect', async ({
    assert,
  }) => {
    const set = async (prefix: string) => byCodePoint(await search(prefix))
    assert.deepEqual(await set('aB'), byCodePoint(['abc', 'ABC', 'Abd', 'aBz', 'ab']))
    assert.deepEqual(await set('a%'), ['a%b', 'a%c'])
    assert.deepEqual(await set('a_'), ['a_b'])
    assert.deepEqual(await set('a\\'), ['a\\b', 'a\\c'])
    assert.deepEqual(await set('%'), ['%'])
    assert.deepEqual(await set(`z${MAX}`), byCodePoint([`z${MAX}`, `z${MAX}a`, `Z${MAX}b`]))
    assert.deepEqual(await set(MAX), [])
    assert.deepEqual(await set('\u{1f600}'), ['\u{1f600}x'])
    assert.deepEqual(await set('01'), ['012', '0123'])
    // Every non-null value, the empty one included.
    assert.lengthOf(await set(''), WORDS.length)
    if (dialect() === 'sqlite') {
      // SQLite's lower() and LIKE fold ASCII only.
      assert.deepEqual(await set('\u00e9'), ['\u00e9cole', '\u00e9t\u00e9'])
      assert.deepEqual(await set('k'), ['Kelvin', 'kilo'])
    } else {
      // PostgreSQL's lower() folds Unicode (É -> é, Kelvin sign -> k) in this database's ctype.
      assert.includeMembers(await set('\u00e9'), ['\u00c9t\u00e9', '\u00e9cole', '\u00e9t\u00e9'])
      assert.includeMembers(await set('k'), ['Kelvin', 'kilo'])
    }
  })

  test('an index can serve it', async ({ assert }) => {
    const prefix = 'ab'
    const range = startsWithRange(db.connection(), {
      match: 'startsWith',
      negated: false,
      value: prefix,
    })
    const where = `lower("text") like lower(?) escape '\\'`
    const pattern = likePattern({ match: 'startsWith', value: prefix })
    if (dialect() === 'sqlite') {
      assert.deepEqual(range, { from: 'AB', below: 'ac' })
      const plan = await db.rawQuery(
        `explain query plan select id from ${TABLE} where ${where} and text >= ? and text < ? order by text`,
        [pattern, range!.from, range!.below]
      )
      const details = plan.map((r: { detail: string }) => r.detail).join(' | ')
      assert.include(details, 'SEARCH lab_word USING INDEX ix_lab_word_text (text>? AND text<?)')
      return
    }
    // PostgreSQL: the companion index serves the LIKE as it is written...
    const explain = async (sql: string, bindings: string[]) =>
      db.transaction(async (trx) => {
        await trx.rawQuery('set local enable_seqscan = off')
        const result = await trx.rawQuery(`explain ${sql}`, bindings)
        return result.rows.map((r: Record<string, string>) => r['QUERY PLAN']).join('\n')
      })
    assert.include(
      await explain(`select id from ${TABLE} where ${where}`, [pattern]),
      '__mg_lp_ix_lab_word_text'
    )
    // ...and, under a code-point collation (the test runner's databases are created from a
    // C.UTF-8 template here), the range serves it in the index's order.
    const { rows } = await db.rawQuery(
      'select datcollate from pg_database where datname = current_database()'
    )
    if (['C', 'POSIX', 'C.UTF-8', 'C.utf8'].includes(rows[0].datcollate)) assert.isNotNull(range)
    if (range) {
      const plan = await explain(
        `select id from ${TABLE} where ${where} and text >= ? and text < ? order by text limit 5`,
        [pattern, range.from, range.below!]
      )
      assert.include(plan, 'ix_lab_word_text')
    }
  })
})
