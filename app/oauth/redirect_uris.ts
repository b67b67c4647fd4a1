/**
 * Redirect URI matching: exact string comparison with the registered URIs (OAuth 2.1), with the
 * one exception RFC 8252 7.3 makes for native apps: a registered loopback IP literal
 * (http://127.0.0.1 or http://[::1]) matches any port, everything else being identical.
 */
const LOOPBACK = new Set(['127.0.0.1', '[::1]'])

function withoutPort(uri: string): string | null {
  try {
    const url = new URL(uri)
    if (url.protocol !== 'http:' || !LOOPBACK.has(url.hostname)) return null
    // Compare the raw string minus the authority's port, so no URL normalisation can widen it.
    return uri.replace(/^http:\/\/(127\.0\.0\.1|\[::1\])(:\d+)?/, 'http://$1')
  } catch {
    return null
  }
}

export function redirectUriAllowed(registered: string[], requested: string): boolean {
  if (registered.includes(requested)) return true
  const loose = withoutPort(requested)
  return loose !== null && registered.some((uri) => withoutPort(uri) === loose)
}

/** RFC 7636 4.2: 43-128 characters of the unreserved set. */
export function validCodeChallenge(value: unknown): boolean {
  return typeof value === 'string' && /^[A-Za-z0-9\-._~]{43,128}$/.test(value)
}
