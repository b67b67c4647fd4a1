/**
 * Rows of the read pipeline's PostgreSQL statements (direct_reads.ts), built with less work per
 * row than node-postgres' own: the same objects (a key per column, in the statement's order,
 * each value through the column type's parser), but
 * - each row is one object literal from a function compiled once per column list (names, types,
 *   formats), instead of a copy of a template object filled one computed key at a time;
 * - a column whose parser returns the text unchanged (text, varchar, uuid, numeric, int8...)
 *   is not passed through it;
 * - no `row` event per row (the pipeline takes the rows from the callback, never from events).
 * The per-statement setup (`addFields`, about a fortieth of a nested read's CPU) shrinks to a
 * lookup. A column list this cannot compile (a binary column, a name that an object literal
 * would read as its prototype) keeps pg's own row building.
 */
import pg from 'pg'
import { TEXT_TEMPORAL_TYPES } from './pg_text_types.js'

type Parser = (text: string) => unknown
type Build = (data: (string | null)[], parsers: Parser[]) => Record<string, unknown>
interface Field {
  name: string
  dataTypeID: number
  format?: string
}

/** pg-types' parser of every type it has none for: `String(text)`, the text itself. */
const unparsed = (pg.types.getTypeParser as (oid: number, format: string) => Parser)(0, 'text')
const MAX_SHAPES = 1000

/** A column list's parsers and row builder (null: pg builds its rows). */
interface Shape {
  parsers: Parser[]
  build: Build | null
}
const shapes = new Map<string, Shape>()

/**
 * Per SQL text, the column list it last returned and its shape: a statement that runs again
 * (the common case) finds its shape by comparing columns, without building the key text above.
 */
const byText = new Map<string, { fields: Field[]; shape: Shape }>()

function sameColumns(a: Field[], b: Field[]): boolean {
  if (a.length !== b.length) return false
  // eslint-disable-next-line @unicorn/no-for-loop -- per statement: no iterator, no entry arrays
  for (let i = 0; i < a.length; i++) {
    const x = a[i]
    const y = b[i]
    if (x.name !== y.name || x.dataTypeID !== y.dataTypeID || x.format !== y.format) return false
  }
  return true
}

function compile(fields: Field[], parsers: Parser[]): Build | null {
  if (fields.some((f) => f.format === 'binary' || f.name === '__proto__')) return null
  const entries = fields.map((f, i) => {
    const value = parsers[i] === unparsed ? `d[${i}]` : `p[${i}](d[${i}])`
    return `${JSON.stringify(f.name)}: d[${i}] === null ? null : ${value}`
  })
  return new Function('d', 'p', `return { ${entries.join(', ')} }`) as Build
}

/**
 * A pg Result whose rows are built by a compiled function (see above). Parsers and builder are
 * kept per column list: the type parsers are the read pipeline's fixed set (pg_text_types.ts).
 */
export class CompiledRowsResult extends (pg.Result as any) {
  #build: Build | null = null

  constructor(rowMode: string | undefined, types: typeof TEXT_TEMPORAL_TYPES) {
    super(rowMode, types)
  }

  /** The statement's SQL text (set by ReadQuery): its last column list is tried first. */
  text: string | undefined

  addFields(fields: Field[]) {
    const last = this.text === undefined ? undefined : byText.get(this.text)
    let shape = last && sameColumns(last.fields, fields) ? last.shape : undefined
    if (!shape) {
      let key = ''
      for (const f of fields) key += `${f.name}\u0000${f.dataTypeID}\u0000${f.format ?? ''}\u0001`
      shape = shapes.get(key)
      if (!shape) {
        const parsers = fields.map(
          (f) => this._types.getTypeParser(f.dataTypeID, f.format || 'text') as Parser
        )
        if (shapes.size >= MAX_SHAPES) shapes.clear()
        shapes.set(key, (shape = { parsers, build: compile(fields, parsers) }))
      }
      if (this.text !== undefined) {
        if (byText.size >= MAX_SHAPES) byText.clear()
        byText.set(this.text, { fields, shape })
      }
    }
    this.#build = shape.build
    if (!shape.build) return super.addFields(fields)
    this.fields = fields
    this._parsers = shape.parsers
  }

  parseRow(data: (string | null)[]) {
    return this.#build ? this.#build(data, this._parsers) : super.parseRow(data)
  }
}

/**
 * The pg Query of the read pipeline's statements (built as pg_statements.ts `submit` builds
 * queries: from text, values and callback): dates and timestamps as text (pg_text_types.ts),
 * rows from a CompiledRowsResult, no `row` event. pg creates a query's Result in its
 * constructor, so it is replaced there.
 */
export class ReadQuery extends (pg.Query as any) {
  constructor(text: string, values: unknown[], callback: unknown) {
    super(text, values, callback)
    this.types = TEXT_TEMPORAL_TYPES
    this._result = new CompiledRowsResult(undefined, TEXT_TEMPORAL_TYPES)
    this._result.text = text
    this._results = this._result
  }

  /** pg's own without the `row` event: the row is kept, or its parse error ends the query. */
  handleDataRow(msg: { fields: (string | null)[] }) {
    if (this._canceledDueToError) return
    try {
      this._result.rows.push(this._result.parseRow(msg.fields))
    } catch (error) {
      this._canceledDueToError = error
    }
  }
}
