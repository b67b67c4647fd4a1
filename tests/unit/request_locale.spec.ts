import { test } from '@japa/runner'
import { acceptedLanguages, javaLocale, resolveLocale } from '#settings/request_locale'

test.group('request locale', () => {
  test('javaLocale', ({ assert }) => {
    assert.equal(javaLocale('en'), 'en')
    assert.equal(javaLocale('en-us'), 'en_US')
    assert.equal(javaLocale('PT_br'), 'pt_BR')
  })

  test('Accept-Language ordered by quality, * and q=0 dropped', ({ assert }) => {
    assert.deepEqual(acceptedLanguages('fr;q=0.5, de, *;q=0.1, it;q=0, en-GB;q=0.9'), [
      'de',
      'en-GB',
      'fr',
    ])
    assert.deepEqual(acceptedLanguages(undefined), [])
  })

  test('exact, then same language, then fallbacks, then the first available', ({ assert }) => {
    const available = ['en', 'de', 'pt_BR']
    assert.equal(resolveLocale('pt-BR', available), 'pt_BR')
    assert.equal(resolveLocale('pt', available), 'pt_BR')
    assert.equal(resolveLocale('de-AT', available), 'de')
    assert.equal(resolveLocale('fr', available), 'en')
    assert.equal(resolveLocale('fr', available, ['de']), 'de')
    assert.equal(resolveLocale(undefined, [], ['de']), 'en')
  })
})
