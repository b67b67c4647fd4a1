/**
 * Helpers of the multi-instance tests: a cookie-keeping browser that talks to a chosen origin
 * (the load balancer, or one instance after another), and a probe that waits until every
 * instance, asked directly, shows a change.
 */
import { Browser } from '#tests/helpers/oauth'

/**
 * A Browser whose relative URLs (and absolute URLs on any of `origins`) go to the origin that
 * `route()` names: always the load balancer, or instance after instance. Every answer's
 * `X-Served-By` (set by HAProxy) or target origin is recorded in `servedBy`.
 */
export class RoutedBrowser extends Browser {
  servedBy: string[] = []
  #next = 0

  constructor(private origins: string[]) {
    super()
  }

  /** The origin of the next request: round-robin over `origins`. */
  route(): string {
    return this.origins[this.#next++ % this.origins.length]
  }

  async fetch(url: string, init: RequestInit = {}) {
    const origin = this.route()
    const parsed = new URL(url, origin)
    const target = this.origins.includes(parsed.origin)
      ? new URL(parsed.pathname + parsed.search, origin)
      : parsed
    const response = await super.fetch(target.toString(), init)
    this.servedBy.push(response.headers.get('x-served-by') ?? origin)
    return response
  }
}

/** The value of the hidden `_csrf` field of the login page. */
export const csrfOf = (html: string) =>
  /name=["']_csrf["']\s+value=["']([^"']+)["']/.exec(html)?.[1] ?? ''

/**
 * Polls `check` on every port at once (every 20 ms, `limitMs` * 3 at most) and resolves with
 * the milliseconds each instance took to satisfy it (Infinity when it never did).
 */
export async function timeToSee(
  ports: number[],
  check: (origin: string) => Promise<boolean>,
  limitMs = 1000
): Promise<number[]> {
  const start = Date.now()
  return Promise.all(
    ports.map(async (port) => {
      const origin = `http://127.0.0.1:${port}`
      while (Date.now() - start < limitMs * 3) {
        if (await check(origin).catch(() => false)) return Date.now() - start
        await new Promise((r) => setTimeout(r, 20))
      }
      return Number.POSITIVE_INFINITY
    })
  )
}

/** `fetch` with a bearer token. */
export const withToken = (token: string, init: RequestInit = {}): RequestInit => ({
  ...init,
  headers: { Authorization: `Bearer ${token}`, ...(init.headers as Record<string, string>) },
})

/** A client_credentials token request to `origin`, the client authenticated with HTTP Basic. */
export const clientCredentials = (origin: string, clientId: string, secret: string) =>
  fetch(`${origin}/oauth2/token`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      'Authorization': `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`,
    },
    body: 'grant_type=client_credentials',
  })
