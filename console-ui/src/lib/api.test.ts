import { describe, expect, it } from 'vitest'
import { ApiError, createApiClient } from './api'

interface Call {
  url: string
  init: RequestInit | undefined
}

/** A fetch that records calls and answers with the given Response (or throws). */
function fakeFetch(answer: () => Response) {
  const calls: Call[] = []
  const fn = (async (input: RequestInfo | URL, init?: RequestInit) => {
    calls.push({ url: String(input), init })
    return answer()
  }) as typeof fetch
  return { fn, calls }
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })

async function catchError(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise
  } catch (error) {
    if (error instanceof ApiError) return error
    throw error
  }
  throw new Error('expected the request to fail')
}

describe('api client', () => {
  it('parses a JSON body on 2xx', async () => {
    const health = { status: 'ok', version: '0.1.0', modelVersion: 3, modelChecksum: 'ab', database: 'sqlite' }
    const { fn, calls } = fakeFetch(() => json(200, health))
    const client = createApiClient({ fetch: fn })

    await expect(client.get('/health')).resolves.toEqual(health)
    expect(calls[0]?.url).toBe('/health')
    expect(calls[0]?.init?.method).toBe('GET')
  })

  it("throws ApiError with the server's {error, details} on non-2xx", async () => {
    const { fn } = fakeFetch(() =>
      json(404, { error: 'Entity not found', details: 'Entity sample_Order not found' })
    )
    const error = await catchError(createApiClient({ fetch: fn }).get('/rest/entities/sample_Order'))

    expect(error.status).toBe(404)
    expect(error.error).toBe('Entity not found')
    expect(error.details).toBe('Entity sample_Order not found')
    expect(error.message).toBe('Entity not found: Entity sample_Order not found')
  })

  it('keeps bodies of other shapes and handles an empty 401', async () => {
    const validation = [{ message: 'must not be blank', path: 'name' }]
    const arrayError = await catchError(
      createApiClient({ fetch: fakeFetch(() => json(400, validation)).fn }).get('/x')
    )
    expect(arrayError.status).toBe(400)
    expect(arrayError.error).toBeUndefined()
    expect(arrayError.body).toEqual(validation)

    const empty = await catchError(
      createApiClient({
        fetch: fakeFetch(() => new Response(null, { status: 401, statusText: 'Unauthorized' })).fn,
      }).get('/admin/users')
    )
    expect(empty.status).toBe(401)
    expect(empty.body).toBeUndefined()
    expect(empty.message).toBe('Request failed: HTTP 401 Unauthorized')
  })

  it('turns a network failure into ApiError with status 0', async () => {
    const fn = (async () => {
      throw new TypeError('fetch failed')
    }) as typeof fetch
    const error = await catchError(createApiClient({ fetch: fn }).get('/health'))

    expect(error.status).toBe(0)
    expect(error.message).toContain('fetch failed')
  })

  it('sends the bearer token from the token provider, and JSON bodies', async () => {
    const { fn, calls } = fakeFetch(() => new Response(null, { status: 204 }))
    const client = createApiClient({ fetch: fn, baseUrl: 'http://host', getAccessToken: () => 'tok' })

    await expect(client.request('/admin/x', { method: 'POST', body: { a: 1 } })).resolves.toBeUndefined()
    const headers = calls[0]?.init?.headers as Record<string, string>
    expect(calls[0]?.url).toBe('http://host/admin/x')
    expect(headers.Authorization).toBe('Bearer tok')
    expect(headers['Content-Type']).toBe('application/json')
    expect(calls[0]?.init?.body).toBe('{"a":1}')
  })
})
