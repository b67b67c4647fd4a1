import { describe, expect, it } from 'vitest'
import { advice, entryFrom, keepErrors, localProblems, newDraft, withType } from './client_draft'

describe('client form rules', () => {
  it('a public client has no secret, always PKCE, and only the app grants', () => {
    const draft = {
      ...newDraft(),
      grantTypes: ['client_credentials', 'authorization_code', 'refresh_token', 'password'],
      requireProofKey: false,
    }
    const pub = withType(draft, true)
    expect(pub.authenticationMethods).toEqual(['none'])
    expect(pub.requireProofKey).toBe(true)
    expect(pub.grantTypes).toEqual(['authorization_code', 'refresh_token'])
    expect(withType(pub, false).authenticationMethods).toEqual(['client_secret_basic'])
  })

  it('sends a typed secret only for a new confidential client', () => {
    const draft = {
      ...newDraft(),
      clientId: ' app ',
      secretMode: 'set' as const,
      secret: 'x'.repeat(16),
      redirectUris: [' https://a/cb '],
    }
    expect(entryFrom(draft, true)).toMatchObject({
      clientId: 'app',
      clientSecret: 'x'.repeat(16),
      redirectUris: ['https://a/cb'],
    })
    expect(entryFrom(draft, false)).not.toHaveProperty('clientSecret')
    expect(entryFrom(draft, true)).not.toHaveProperty('secretMode')
  })

  it('refuses locally what cannot be right, keyed like the server paths', () => {
    const draft = {
      ...newDraft(),
      redirectUris: ['https://ok/cb', 'relative/cb'],
      secretMode: 'set' as const,
      secret: 'short',
    }
    expect(localProblems(draft, true)).toEqual({
      'clientId': 'Enter a client id',
      'redirectUris[1]': expect.stringMatching(/absolute/),
      'clientSecret': expect.stringMatching(/16/),
    })
  })

  it('keeps the errors of the fields that did not change', () => {
    const before = newDraft()
    const after = { ...before, redirectUris: ['https://x/cb'] }
    const errors = { 'redirectUris[0]': 'bad', 'accessTokenTimeToLive': 'bad duration' }
    expect(keepErrors(errors, before, after)).toEqual({ accessTokenTimeToLive: 'bad duration' })
  })

  it('advises on grant combinations', () => {
    const tips = advice({ ...newDraft(), grantTypes: ['authorization_code', 'refresh_token'] })
    expect(tips.join(' ')).toMatch(/needs at least one redirect URI/)
  })
})
