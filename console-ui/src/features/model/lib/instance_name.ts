/*
 * Instance-name patterns rendered in the browser for the live preview, as the server renders
 * them (app/engine/data/read/instance_name.ts and serializer.ts): `{title} ({publisher.name})`
 * over the row JSON; a reference at the end of a path shows its `_instanceName`, an enum value
 * its English caption; empty parts go with their brackets.
 */
import type { ModelEnum, ModelEntity } from '../../../lib/model'

export interface Template {
  braces: boolean
  literals: string[]
  paths: string[][]
}

export function compilePattern(pattern: string): Template | null {
  if (!pattern.trim()) return null
  if (!pattern.includes('{'))
    return { braces: false, literals: [], paths: [pattern.trim().split('.')] }
  const literals: string[] = []
  const paths: string[][] = []
  let last = 0
  for (const m of pattern.matchAll(/\{([^}]*)\}/g)) {
    literals.push(pattern.slice(last, m.index))
    paths.push(m[1]!.trim().split('.'))
    last = m.index + m[0].length
  }
  literals.push(pattern.slice(last))
  return { braces: true, literals, paths }
}

/** The property paths a pattern reads (`customer.name`), for the inline fetch plan. */
export const patternPaths = (pattern: string) =>
  (compilePattern(pattern)?.paths ?? []).map((p) => p.join('.')).filter(Boolean)

const OPENING = '([{<«“‘'
const CLOSING = ')]}>»”’'

function split(literal: string) {
  let start = 0
  while (start < literal.length && CLOSING.includes(literal[start]!)) start++
  let end = literal.length
  while (end > start && OPENING.includes(literal[end - 1]!)) end--
  return {
    close: literal.slice(0, start),
    sep: literal.slice(start, end),
    open: literal.slice(end),
  }
}

function strongest(separators: string[]): string {
  let best = separators[0] ?? ''
  for (const s of separators) if (s.trim().length > best.trim().length) best = s
  return best
}

const words = (text: string) => (/[\p{L}]/u.test(text) ? text : '')

export function fillPattern(literals: readonly string[], texts: readonly string[]): string {
  if (texts.every((t) => t !== '')) {
    let result = literals[0] ?? ''
    for (let i = 0; i < texts.length; i++) result += texts[i]! + (literals[i + 1] ?? '')
    return result
  }
  const n = texts.length
  const head = split(literals[0] ?? '')
  const tail = split(literals[n] ?? '')
  const inner = literals.slice(1, n).map(split)
  const open = (i: number) => (i === 0 ? head.open : inner[i - 1]!.open)
  const close = (i: number) => (i === n - 1 ? tail.close : inner[i]!.close)
  const present = texts.flatMap((t, i) => (t === '' ? [] : [i]))
  if (present.length === 0) return (words(head.sep) + words(tail.sep + tail.open)).trim()
  let result = present[0] === 0 ? (literals[0] ?? '') : words(head.sep)
  present.forEach((i, k) => {
    if (k > 0) result += strongest(inner.slice(present[k - 1], i).map((l) => l.sep))
    result += open(i) + texts[i]! + close(i)
  })
  const last = present[present.length - 1]!
  result += last === n - 1 ? tail.sep + tail.open : words(tail.sep + tail.open)
  return result.trim()
}

export interface PatternContext {
  entities: ModelEntity[]
  enums: ModelEnum[]
}

type Json = Record<string, unknown>

/** The text of one path in a row, or null when the row lacks what it needs. */
function pathText(
  ctx: PatternContext,
  entityName: string,
  row: Json,
  path: string[]
): string | null {
  const [first, ...rest] = path
  const entity = ctx.entities.find((e) => e.name === entityName)
  const attribute = entity?.attributes.find((a) => a.name === first)
  const value = first === undefined ? undefined : row[first]
  if (!attribute) {
    // System attributes (id, version, createdBy…) are read as they are.
    if (
      first &&
      ['id', 'version', 'createdBy', 'createdDate', 'lastModifiedBy', 'lastModifiedDate'].includes(
        first
      )
    )
      return value === undefined || value === null ? '' : String(value)
    return null
  }
  if (value === undefined || value === null) return ''
  if (attribute.type === 'association' || attribute.type === 'composition') {
    if (typeof value !== 'object' || Array.isArray(value)) return null
    if (rest.length === 0) return String((value as Json)._instanceName ?? '')
    return pathText(ctx, attribute.target ?? '', value as Json, rest)
  }
  if (attribute.type === 'enum') {
    const values = ctx.enums.find((e) => e.name === attribute.enum)?.values
    const found = values?.find((v) => v.name === value || String(v.id) === String(value))
    return found?.caption?.en ?? found?.name ?? String(value)
  }
  return typeof value === 'object' ? JSON.stringify(value) : String(value)
}

/** The pattern over a row; null when it cannot be rendered (unknown property). */
export function renderPattern(
  ctx: PatternContext,
  entity: string,
  pattern: string,
  row: Json
): string | null {
  const template = compilePattern(pattern)
  if (!template) return null
  const texts: string[] = []
  for (const path of template.paths) {
    const text = pathText(ctx, entity, row, path)
    if (text === null) return null
    texts.push(text)
  }
  return template.braces ? fillPattern(template.literals, texts) : (texts[0] ?? null)
}
