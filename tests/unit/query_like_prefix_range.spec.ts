/**
 * `prefixRange` (query/operators/like.ts): the sargable bounds ANDed to a `startsWith` LIKE must
 * hold every string the LIKE matches, under both case foldings, for any prefix: checked by
 * brute force over an alphabet of the awkward characters (case pairs, the non-ASCII characters
 * that lower to ASCII letters, LIKE wildcards and the escape character, the largest code point,
 * the code points around the surrogates, an astral character).
 */
import { test } from '@japa/runner'
import type { CaseFolding } from '#engine/query/operators/like'
import { prefixCaseRanges, prefixRange, prefixSuccessor } from '#engine/query/operators/like'

const MAX = '\u{10FFFF}'

/** Code-point (UTF-8 byte) order, as SQLite's BINARY and PostgreSQL's C collations compare. */
const compare = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b))

/** What `lower()` does to one character under each folding (glibc C.UTF-8: simple mapping). */
function lowerChar(ch: string, folding: CaseFolding): string {
  if (folding === 'ascii') return /[A-Z]/.test(ch) ? ch.toLowerCase() : ch
  if (ch === '\u0130') return 'i'
  const lower = ch.toLowerCase()
  return [...lower].length === 1 ? lower : ch
}

/** `lower(s) LIKE lower(escaped(prefix) || '%')`, character by character. */
function likeStartsWith(s: string, prefix: string, folding: CaseFolding): boolean {
  const sc = [...s]
  const pc = [...prefix]
  if (sc.length < pc.length) return false
  return pc.every((ch, i) => lowerChar(sc[i], folding) === lowerChar(ch, folding))
}

const ALPHABET = [
  'a',
  'A',
  'i',
  'I',
  'k',
  'K',
  '\u0130', // İ, lowers to i (unicode)
  '\u0131', // ı
  '\u212a', // Kelvin sign, lowers to k (unicode)
  '\u00e9', // é
  '\u00c9', // É
  '%',
  '_',
  '\\',
  '0',
  '\ud7ff',
  '\ue000',
  MAX,
  '\u{1f600}',
]

function strings(maxLength: number): string[] {
  let level = ['']
  const out = ['']
  for (let n = 0; n < maxLength; n++) {
    level = level.flatMap((s) => ALPHABET.map((ch) => s + ch))
    out.push(...level)
  }
  return out
}

test.group('query: startsWith prefix range', () => {
  test('examples', ({ assert }) => {
    assert.deepEqual(prefixRange('B05', 'ascii'), { from: 'B05', below: 'b06' })
    assert.deepEqual(prefixRange('b05', 'ascii'), { from: 'B05', below: 'b06' })
    assert.deepEqual(prefixRange('05-', 'ascii'), { from: '05-', below: '05.' })
    // Wildcards and the escape character are plain characters of the prefix.
    assert.deepEqual(prefixRange('100%_\\', 'ascii'), { from: '100%_\\', below: '100%_]' })
    assert.isNull(prefixRange('', 'ascii'))
    assert.isNull(prefixRange('', 'unicode'))
    // The largest code point: the one before it is incremented; nothing above U+10FFFF...
    assert.deepEqual(prefixRange(`ab${MAX}`, 'ascii'), { from: `AB${MAX}`, below: 'ac' })
    assert.deepEqual(prefixRange(MAX, 'ascii'), { from: MAX, below: null })
    // Non-ASCII: exact under ascii folding; the range stops before it under unicode folding.
    assert.deepEqual(prefixRange('\u00e9t\u00e9', 'ascii'), {
      from: '\u00e9T\u00e9',
      below: '\u00e9t\u00ea',
    })
    assert.isNull(prefixRange('\u00e9t\u00e9', 'unicode'))
    assert.deepEqual(prefixRange('Caf\u00e9', 'unicode'), { from: 'CAF', below: 'cag' })
    // Unicode folding: U+0130 lowers to i and U+212A to k.
    assert.deepEqual(prefixRange('ki', 'unicode'), { from: 'KI', below: '\u212a\u0131' })
    assert.deepEqual(prefixRange('ki', 'ascii'), { from: 'KI', below: 'kj' })
    // A lone surrogate reaches the database as U+FFFD: no range.
    assert.isNull(prefixRange('a\ud800', 'ascii'))
    assert.deepEqual(prefixRange('\u{1f600}', 'ascii'), { from: '\u{1f600}', below: '\u{1f601}' })
  })

  test('successor in code-point order', ({ assert }) => {
    assert.equal(prefixSuccessor('abc'), 'abd')
    assert.equal(prefixSuccessor(`a${MAX}`), 'b')
    assert.equal(prefixSuccessor(`a${MAX}${MAX}`), 'b')
    assert.isNull(prefixSuccessor(MAX))
    assert.isNull(prefixSuccessor(''))
    // Surrogates are skipped: U+D7FF is followed by U+E000.
    assert.equal(prefixSuccessor('a\ud7ff'), 'a\ue000')
    assert.equal(prefixSuccessor('\uffff'), '\u{10000}')
  })

  test('case ranges: one exact range per case variant, at most 8', ({ assert }) => {
    assert.deepEqual(prefixCaseRanges('b0512'), [
      { from: 'B0512', below: 'B0513' },
      { from: 'b0512', below: 'b0513' },
    ])
    assert.deepEqual(prefixCaseRanges('05-'), [{ from: '05-', below: '05.' }])
    // Cut before the fourth letter: 'smi' in its 8 case variants, each narrower than [SMI, smj).
    const smith = prefixCaseRanges('smith')!
    assert.lengthOf(smith, 8)
    assert.deepEqual(smith[0], { from: 'SMI', below: 'SMJ' })
    assert.deepEqual(smith[7], { from: 'smi', below: 'smj' })
    // Non-ASCII characters are exact (SQLite's lower() folds ASCII only).
    assert.deepEqual(prefixCaseRanges('\u00e9a'), [
      { from: '\u00e9A', below: '\u00e9B' },
      { from: '\u00e9a', below: '\u00e9b' },
    ])
    assert.isNull(prefixCaseRanges(''))
    assert.isNull(prefixCaseRanges('a\ud800'))
  })

  test('every string the LIKE matches lies in one of the case ranges (brute force, ascii)', ({
    assert,
  }) => {
    // Every string of up to 3 characters, and every case variant of `aakk` with one more.
    let cased = ['']
    for (const ch of 'aakk') cased = cased.flatMap((v) => [v + ch, v + ch.toUpperCase()])
    const values = [...strings(3), ...cased.flatMap((v) => ALPHABET.map((ch) => v + ch))]
    let matched = 0
    for (const prefix of [...strings(2), 'aAk', 'aAkK', 'aAkK\u00e9']) {
      const ranges = prefixCaseRanges(prefix)
      if (!ranges) continue
      assert.isAtMost(ranges.length, 8)
      for (const s of values) {
        if (!likeStartsWith(s, prefix, 'ascii')) continue
        matched++
        const inside = ranges.some(
          (r) => compare(s, r.from) >= 0 && (r.below === null || compare(s, r.below) < 0)
        )
        if (!inside) assert.fail(`'${s}' starts with '${prefix}' but is in no case range`)
      }
    }
    assert.isAbove(matched, 1000)
  })

  test('every string the LIKE matches lies in the range (brute force)', ({ assert }) => {
    const values = strings(3)
    const prefixes = strings(2)
    for (const folding of ['ascii', 'unicode'] as const) {
      let matched = 0
      for (const prefix of prefixes) {
        const range = prefixRange(prefix, folding)
        if (!range) continue
        for (const s of values) {
          if (!likeStartsWith(s, prefix, folding)) continue
          matched++
          const inside =
            compare(s, range.from) >= 0 && (range.below === null || compare(s, range.below) < 0)
          if (!inside)
            assert.fail(
              `${folding}: '${s}' starts with '${prefix}' but is outside ${JSON.stringify(range)}`
            )
        }
      }
      assert.isAbove(matched, 1000)
    }
  })
})
