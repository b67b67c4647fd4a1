import { describe, expect, it } from 'vitest'
import { renderToStaticMarkup } from 'react-dom/server'
import { Providers } from '../../../app/providers'
import { createQueryClient } from '../../../app/query_client'
import { ApiError } from '../../../lib/api'
import { queryKeys } from '../../../lib/query_keys'
import type { Health } from '../api/health'
import { ServerStatusPanel, ServerStatusView } from './server_status_panel'

const health: Health = {
  status: 'ok',
  version: '0.1.0',
  modelVersion: 7,
  modelChecksum: '0123456789abcdef0123',
  database: 'pg',
}

/** Text content of the element carrying data-testid (good enough for this flat markup). */
function testIdText(html: string, testId: string): string | undefined {
  const match = new RegExp(`data-testid="${testId}"[^>]*>([^<]*)<`).exec(html)
  return match?.[1]
}

describe('server status panel', () => {
  it('shows the health values from the query cache', () => {
    const client = createQueryClient()
    client.setQueryData(queryKeys.health, health)
    const html = renderToStaticMarkup(
      <Providers client={client}>
        <ServerStatusPanel />
      </Providers>
    )

    expect(testIdText(html, 'server-status')).toBe('ok')
    expect(testIdText(html, 'server-version')).toBe('0.1.0')
    expect(testIdText(html, 'database')).toBe('pg')
    expect(testIdText(html, 'model-version')).toBe('7')
    expect(html).toContain('PostgreSQL')
    expect(html).not.toContain('data-testid="server-error"')
  })

  it('shows a loading state, then a readable error', () => {
    const loading = renderToStaticMarkup(<ServerStatusView data={undefined} error={null} isPending />)
    expect(loading).toContain('data-testid="loading"')

    const error = new ApiError(503, { error: 'Server error', details: 'Database unavailable' }, '')
    const failed = renderToStaticMarkup(
      <ServerStatusView data={undefined} error={error} isPending={false} onRetry={() => {}} />
    )
    expect(failed).toContain('data-testid="server-error"')
    expect(failed).toContain('Server error (HTTP 503)')
    expect(failed).toContain('Database unavailable')
    expect(failed).not.toContain('data-testid="loading"')
  })
})
