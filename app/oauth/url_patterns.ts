/**
 * Ant-style URL patterns of the resource server and the request-path firewall in front of them.
 * The rules (documented in app/oauth/README.md):
 *
 * - Patterns: `?` one character, `*` any characters inside one segment, `**` as a whole segment
 *   zero or more segments (`/rest/**` matches `/rest` and everything below), `{name}` one
 *   non-empty segment part; everything else is literal (no braces expansion, character classes
 *   or extglobs, which is why picomatch is not used). `/**` and `**` match every path; any other
 *   pattern without a leading `/` matches nothing. A trailing `/` of a pattern is ignored.
 * - Paths: the raw request target must be in origin form and may contain only printable ASCII
 *   URI characters. Encoded slashes, backslashes and percent signs, control characters, `;`,
 *   empty segments (`//`) and dot segments (`.`, `..`, raw or encoded) are refused with 400,
 *   longer paths than MAX_PATH_LENGTH with 414. What remains is decoded segment by segment; one
 *   trailing slash is dropped (as the router does).
 * - Authenticated patterns match case-insensitively on the decoded path and on the raw path
 *   (they can only be widened). Anonymous patterns match case-sensitively on the decoded path and
 *   only when the request is in canonical form (no escaped unreserved characters such as `%61`).
 */

export const MAX_PATH_LENGTH = 4096

export type PathCheck =
  | {
      ok: true
      /** Decoded path without its trailing slash. */
      path: string
      /** Raw (undecoded) path without its trailing slash. */
      raw: string
      /** No character was escaped that did not need to be. */
      canonical: boolean
    }
  | { ok: false; status: 400 | 414; reason: string }

/** RFC 3986 pchar plus `/`, minus `;` (matrix parameters) and `'` (the router escapes it). */
const RAW_ALLOWED = /^[A-Za-z0-9\-._~!$&()*+,=:@%/]*$/
const ESCAPE = /%([0-9A-Fa-f]{2})/g
const BAD_ESCAPE = /%(?![0-9A-Fa-f]{2})/
/** Encoded `/`, `\`, `%`, control characters and DEL. */
const FORBIDDEN_ESCAPE = /%(2f|5c|25|[01][0-9a-f]|7f)/i
const UNRESERVED = /^[A-Za-z0-9\-._~]$/

const refuse = (reason: string): PathCheck => ({ ok: false, status: 400, reason })

/**
 * Checks the raw request target (`req.url`) and returns the path the patterns are matched
 * against. `routerPath` is the path the router matches (`ctx.request.url()`); when the two
 * disagree (a `\`, a `#`, an absolute-form target), the request is refused: the matcher and the
 * router must always see the same path.
 */
export function inspectRequestPath(target: string, routerPath?: string): PathCheck {
  const q = target.indexOf('?')
  const raw = q === -1 ? target : target.slice(0, q)
  if (raw.length > MAX_PATH_LENGTH)
    return { ok: false, status: 414, reason: 'The request path is too long' }
  if (!raw.startsWith('/')) return refuse('The request target must be an absolute path')
  if (!RAW_ALLOWED.test(raw)) return refuse('The request path contains a forbidden character')
  if (BAD_ESCAPE.test(raw)) return refuse('The request path contains an invalid escape')
  if (FORBIDDEN_ESCAPE.test(raw)) return refuse('The request path contains a forbidden escape')
  if (routerPath !== undefined && routerPath !== raw) return refuse('The request path is ambiguous')

  const trimmed = raw.length > 1 && raw.endsWith('/') ? raw.slice(0, -1) : raw
  if (trimmed === '/') return { ok: true, path: '/', raw: '/', canonical: true }
  const segments = trimmed.slice(1).split('/')
  if (!trimmed.includes('%')) {
    // Nothing escaped (the common case): the decoded path is the raw one.
    for (const segment of segments) {
      if (segment === '') return refuse('The request path contains an empty segment')
      if (segment === '.' || segment === '..')
        return refuse('The request path contains a dot segment')
    }
    return { ok: true, path: trimmed, raw: trimmed, canonical: true }
  }
  const decoded: string[] = []
  let canonical = true
  for (const segment of segments) {
    if (segment === '') return refuse('The request path contains an empty segment')
    let value = segment
    if (segment.includes('%')) {
      try {
        value = decodeURIComponent(segment)
      } catch {
        return refuse('The request path contains an invalid escape')
      }
      for (const [, hex] of segment.matchAll(ESCAPE))
        if (UNRESERVED.test(String.fromCharCode(Number.parseInt(hex, 16)))) canonical = false
    }
    if (value === '.' || value === '..') return refuse('The request path contains a dot segment')
    decoded.push(value)
  }
  return { ok: true, path: `/${decoded.join('/')}`, raw: trimmed, canonical }
}

export interface PathMatcher {
  readonly patterns: readonly string[]
  test(path: string): boolean
}

const MATCH_ALL = /^/
const MATCH_NOTHING = /(?!)/

function segmentSource(segment: string): string {
  let out = ''
  for (let i = 0; i < segment.length; i++) {
    const c = segment[i]
    if (c === '*') out += '[^/]*'
    else if (c === '?') out += '[^/]'
    else if (c === '{' && segment.indexOf('}', i) > i + 1) {
      out += '[^/]+'
      i = segment.indexOf('}', i)
    } else out += c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')
  }
  return out
}

/** One Ant pattern as a regular expression. */
export function compilePattern(pattern: string, caseSensitive: boolean): RegExp {
  const p = pattern.trim()
  if (p === '**' || p === '/**') return MATCH_ALL
  if (!p.startsWith('/')) return MATCH_NOTHING
  const body = p.length > 1 && p.endsWith('/') ? p.slice(1, -1) : p.slice(1)
  let source = ''
  if (body !== '') {
    for (const segment of body.split('/'))
      source += segment === '**' ? '(?:/.*)?' : `/${segmentSource(segment)}`
  }
  return new RegExp(`^${source || '/'}$`, caseSensitive ? '' : 'i')
}

/** Problems of a pattern for the settings validation (null when it is fine). */
export function validatePattern(pattern: string): string | null {
  const p = pattern.trim()
  if (p === '**' || p === '/**') return null
  if (!p.startsWith('/')) return `URL pattern '${pattern}' must start with '/'`
  if (/\s/.test(p)) return `URL pattern '${pattern}' contains whitespace`
  if (/\{[^}]*:/.test(p)) return `URL pattern '${pattern}': {name:regex} is not supported`
  if (/[#;%\\]/.test(p)) return `URL pattern '${pattern}' is not a plain path`
  return null
}

class CompiledMatcher implements PathMatcher {
  #regexes: RegExp[]
  constructor(
    readonly patterns: readonly string[],
    caseSensitive: boolean
  ) {
    this.#regexes = patterns.map((p) => compilePattern(p, caseSensitive))
  }
  test(path: string) {
    for (const re of this.#regexes) if (re.test(path)) return true
    return false
  }
}

const MAX_CACHED = 64
const byContent = new Map<string, CompiledMatcher>()
const byIdentity = { true: new WeakMap(), false: new WeakMap() } as const satisfies Record<
  string,
  WeakMap<readonly string[], CompiledMatcher>
>

/**
 * The matcher of a pattern list, compiled once per distinct list: lists are looked up by
 * identity (the property resolver hands out the same array until the settings change), then
 * by content.
 */
export function matcherFor(patterns: readonly string[], caseSensitive: boolean): PathMatcher {
  const identity = byIdentity[`${caseSensitive}`]
  const known = identity.get(patterns)
  if (known) return known
  const key = `${caseSensitive ? 's' : 'i'}\n${patterns.join('\n')}`
  let matcher = byContent.get(key)
  if (!matcher) {
    if (byContent.size >= MAX_CACHED) byContent.clear()
    matcher = new CompiledMatcher(patterns, caseSensitive)
    byContent.set(key, matcher)
  }
  identity.set(patterns, matcher)
  return matcher
}

let lastAnonymous: { a: readonly string[]; b: readonly string[]; m: PathMatcher } | null = null

/** The case-sensitive matcher of the union of two anonymous pattern lists (new and legacy). */
export function anonymousMatcher(a: readonly string[], b: readonly string[]): PathMatcher {
  if (lastAnonymous && lastAnonymous.a === a && lastAnonymous.b === b) return lastAnonymous.m
  const m = matcherFor(b.length === 0 ? a : a.length === 0 ? b : [...a, ...b], true)
  lastAnonymous = { a, b, m }
  return m
}
