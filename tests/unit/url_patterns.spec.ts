import { test } from '@japa/runner'
import {
  MAX_PATH_LENGTH,
  anonymousMatcher,
  compilePattern,
  inspectRequestPath,
  matcherFor,
  validatePattern,
} from '#oauth/url_patterns'

const matches = (pattern: string, path: string, caseSensitive = true) =>
  compilePattern(pattern, caseSensitive).test(path)

/** The decision the middleware takes, without the engine: 400/414, anonymous, auth, open. */
function decide(target: string, authenticated: string[], anonymous: string[]) {
  const check = inspectRequestPath(target)
  if (!check.ok) return check.status
  if (check.canonical && anonymousMatcher(anonymous, []).test(check.path)) return 'anonymous'
  const auth = matcherFor(authenticated, false)
  return auth.test(check.path) || auth.test(check.raw) ? 'authenticated' : 'open'
}

test.group('Ant patterns', () => {
  test('`/rest/**` matches /rest and everything below, on a segment boundary', ({ assert }) => {
    for (const path of ['/rest', '/rest/x', '/rest/entities/a/b/c'])
      assert.isTrue(matches('/rest/**', path), path)
    for (const path of ['/restx', '/res', '/', '/api/rest/x'])
      assert.isFalse(matches('/rest/**', path), path)
    assert.isTrue(matches('/rest/services/public/**', '/rest/services/public/x'))
    assert.isFalse(matches('/rest/services/public/**', '/rest/services/publicity/x'))
  })

  test('`*` is one segment, `?` one character, `{name}` one non-empty segment', ({ assert }) => {
    assert.isTrue(matches('/rest/docs/*', '/rest/docs/openapi.json'))
    assert.isFalse(matches('/rest/docs/*', '/rest/docs/a/b'))
    assert.isFalse(matches('/rest/docs/*', '/rest/docs'))
    assert.isTrue(matches('/rest/docs/*.json', '/rest/docs/openapi.json'))
    assert.isFalse(matches('/rest/docs/*.json', '/rest/docs/openapi.yaml'))
    assert.isTrue(matches('/rest/v?/x', '/rest/v2/x'))
    assert.isFalse(matches('/rest/v?/x', '/rest/v22/x'))
    assert.isFalse(matches('/rest/v?/x', '/rest/v//x'))
    assert.isTrue(matches('/rest/entities/{name}', '/rest/entities/Book'))
    assert.isFalse(matches('/rest/entities/{name}', '/rest/entities/Book/1'))
    assert.isTrue(matches('/rest/**/count', '/rest/entities/Book/search/count'))
    assert.isTrue(matches('/rest/**/count', '/rest/count'))
  })

  test('everything else is literal: no braces, classes, extglobs, regex', ({ assert }) => {
    assert.isFalse(matches('/rest/a.b', '/rest/axb'))
    assert.isFalse(matches('/rest/a+', '/rest/aa'))
    assert.isFalse(matches('/rest/{a,b}/x', '/rest/{a,b}x'))
    assert.isFalse(matches('/rest/[a-z]', '/rest/q'))
    assert.isTrue(matches('/rest/[a-z]', '/rest/[a-z]'))
    assert.isFalse(matches('/rest/!(x)', '/rest/y'))
    assert.isTrue(matches('/rest/docs/*', '/rest/docs/.hidden'))
  })

  test('`/**` matches everything; patterns without a leading slash nothing', ({ assert }) => {
    assert.isTrue(matches('/**', '/'))
    assert.isTrue(matches('**', '/anything/at/all'))
    assert.isFalse(matches('rest/**', '/rest/x'))
    assert.isFalse(matches('', '/'))
    assert.isTrue(matches('/', '/'))
    assert.isTrue(matches('/rest/userInfo/', '/rest/userInfo'), 'trailing slash ignored')
  })

  test('case: sensitive for anonymous patterns, insensitive for authenticated', ({ assert }) => {
    assert.isFalse(matches('/rest/userInfo', '/REST/userinfo'))
    assert.isTrue(matches('/rest/userInfo', '/REST/userinfo', false))
    assert.isTrue(matches('/rest/**', '/Rest/x', false))
  })

  test('compiled once per distinct list', ({ assert }) => {
    const list = ['/rest/**']
    assert.strictEqual(matcherFor(list, false), matcherFor(list, false))
    assert.strictEqual(matcherFor(list, false), matcherFor(['/rest/**'], false))
    assert.notStrictEqual(matcherFor(list, false), matcherFor(list, true))
    const a = ['/a/**']
    const b = ['/b']
    assert.strictEqual(anonymousMatcher(a, b), anonymousMatcher(a, b))
    assert.isTrue(anonymousMatcher(a, b).test('/b'))
    assert.isTrue(anonymousMatcher(a, b).test('/a/x'))
  })

  test('validatePattern', ({ assert }) => {
    assert.isNull(validatePattern('/rest/**'))
    assert.isNull(validatePattern('/**'))
    assert.match(validatePattern('rest/**')!, /must start with/)
    assert.match(validatePattern('/rest/ x')!, /whitespace/)
    assert.match(validatePattern('/rest/{id:[0-9]+}')!, /not supported/)
    assert.match(validatePattern('/rest/x;y')!, /plain path/)
  })
})

test.group('request path firewall', () => {
  test('normal paths pass, decoded, trailing slash dropped, query ignored', ({ assert }) => {
    assert.deepEqual(inspectRequestPath('/rest/userInfo'), {
      ok: true,
      path: '/rest/userInfo',
      raw: '/rest/userInfo',
      canonical: true,
    })
    assert.deepEqual(inspectRequestPath('/rest/userInfo/?a=/b/../c'), {
      ok: true,
      path: '/rest/userInfo',
      raw: '/rest/userInfo',
      canonical: true,
    })
    assert.deepEqual(inspectRequestPath('/'), { ok: true, path: '/', raw: '/', canonical: true })
    assert.deepEqual(inspectRequestPath('/rest/files/a%20b'), {
      ok: true,
      path: '/rest/files/a b',
      raw: '/rest/files/a%20b',
      canonical: true,
    })
    assert.deepEqual(inspectRequestPath('/rest/%75serInfo'), {
      ok: true,
      path: '/rest/userInfo',
      raw: '/rest/%75serInfo',
      canonical: false,
    })
  })

  test('tricks are refused with 400', ({ assert }) => {
    const refused = [
      '//rest/entities',
      '/rest//entities',
      '/rest/docs//',
      '/rest/docs/..%2Fentities',
      '/rest/docs/..%2fentities',
      '/rest/docs/%2e%2e/entities',
      '/rest/docs/%2E%2E/entities',
      '/rest/docs/.%2e/entities',
      '/rest/docs/../entities',
      '/rest/./entities',
      '/rest/docs/.',
      '/rest/docs/x;jsessionid=1',
      '/rest/entities/PublicNews;x',
      '/rest/services/public%2F..%2Fprivate/m',
      '/rest/docs%5C..%5Centities',
      '/rest\\entities',
      '/rest/docs/%252e%252e/entities',
      '/rest/x%00',
      '/rest/x%0a',
      '/rest/x%7F',
      '/rest/x\u0000',
      '/rest/x y',
      '/rest/\u00e9',
      '/rest/x%zz',
      '/rest/x%C0%AE',
      '/rest/x#/rest/docs/a',
      "/rest/x'y",
      'http://evil.example/rest/entities',
      '*',
      '',
    ]
    for (const target of refused) {
      const result = inspectRequestPath(target)
      assert.isFalse(result.ok, JSON.stringify(target))
      if (!result.ok) assert.equal(result.status, 400, JSON.stringify(target))
    }
  })

  test('overlong paths are 414; the router path must agree', ({ assert }) => {
    const long = `/rest/${'a'.repeat(MAX_PATH_LENGTH)}`
    assert.deepInclude(inspectRequestPath(long), { ok: false, status: 414 })
    assert.deepInclude(inspectRequestPath('/rest/x', '/rest/x'), { ok: true })
    assert.deepInclude(inspectRequestPath('/rest/x', '/rest/y'), { ok: false, status: 400 })
  })

  test('no trick widens an anonymous pattern or escapes an authenticated one', ({ assert }) => {
    const auth = ['/rest/**']
    const anon = ['/rest/docs/*', '/rest/services/public/**', '/rest/entities/PublicNews']
    const cases: [string, string | number][] = [
      ['/rest/docs/openapi.json', 'anonymous'],
      ['/rest/docs/openapi.json/', 'anonymous'],
      ['/rest/docs', 'authenticated'],
      ['/rest/docs/', 'authenticated'],
      ['/rest/docs/a/b', 'authenticated'],
      ['/rest/entities/PublicNews', 'anonymous'],
      ['/rest/entities/publicnews', 'authenticated'],
      ['/rest/entities/Public%4Eews', 'authenticated'],
      ['/REST/docs/openapi.json', 'authenticated'],
      ['/rest/services/PUBLIC/x', 'authenticated'],
      ['/rest/services/publicity/x', 'authenticated'],
      ['/rest/entities/Secret?x=/rest/services/public/', 'authenticated'],
      ['/REST/entities/Secret', 'authenticated'],
      ['/r%65st/entities/Secret', 'authenticated'],
      ['/rest', 'authenticated'],
      ['/health', 'open'],
      ['/restful', 'open'],
      ['//rest/entities', 400],
      ['/rest/docs/..%2Fentities', 400],
      ['/rest/docs/%2e%2e/entities', 400],
      ['/rest/docs/../entities', 400],
      ['/rest/docs/x;jsessionid=1', 400],
      ['/rest/services/public/../../entities/Secret', 400],
      ['/rest/services/public;x/../private', 400],
    ]
    for (const [target, expected] of cases)
      assert.equal(decide(target, auth, anon), expected, target)
  })
})
