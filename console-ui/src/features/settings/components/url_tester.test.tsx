import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { cleanup, render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { MemoryRouter } from 'react-router'
import { Providers } from '../../../app/providers'
import { createQueryClient } from '../../../app/query_client'
import type { Setting, UrlTestResult } from '../api/settings'
import { UrlTester } from './url_tester'
import { UrlAccessPanel } from './url_access_panel'

const ANONYMOUS = 'svc.resource-server.anonymous-url-patterns'
const LEGACY = 'svc.rest.anonymous-url-patterns'
const AUTHENTICATED = 'svc.resource-server.authenticated-url-patterns'

const base: UrlTestResult = {
  method: 'GET',
  path: '/rest/entities/shop_Item',
  normalizedPath: '/rest/entities/shop_Item',
  canonical: true,
  kind: 'anonymous',
  anonymous: { pattern: '/rest/entities/shop_Item/**', property: ANONYMOUS },
  authenticated: { pattern: '/rest/**', property: AUTHENTICATED },
  tokenRequired: false,
  runsAs: { user: 'anonymous', resourceRoles: ['item-reader'], rowLevelRoles: [] },
  rejected: null,
  route: '/rest/entities/:entity',
  candidate: false,
  patterns: { [ANONYMOUS]: ['/rest/entities/shop_Item/**'], [LEGACY]: [], [AUTHENTICATED]: ['/rest/**'] },
}

let replies: { status: number; body: unknown }[] = []
const fetchMock = vi.fn(async (_url: string, _init?: RequestInit) => {
  const reply = replies.shift() ?? { status: 200, body: base }
  return new Response(JSON.stringify(reply.body), {
    status: reply.status,
    headers: { 'Content-Type': 'application/json' },
  })
})
const sentBodies = () => fetchMock.mock.calls.map(([, init]) => JSON.parse(String(init?.body)))

beforeEach(() => {
  replies = []
  fetchMock.mockClear()
  vi.stubGlobal('fetch', fetchMock)
})
afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

function renderIn(ui: React.ReactNode) {
  render(
    <MemoryRouter>
      <Providers client={createQueryClient()}>{ui}</Providers>
    </MemoryRouter>
  )
  return userEvent.setup()
}

const setting = (name: string, value: string[]): Setting => ({
  name,
  type: 'list',
  default: name === AUTHENTICATED ? ['/rest/**'] : [],
  value,
  source: 'default',
  stored: null,
  fallback: { value, source: 'default' },
})

describe('URL tester', () => {
  it('asks the server and shows the matching pattern, no token needed, and who it runs as', async () => {
    const user = renderIn(<UrlTester candidate={null} />)
    expect((screen.getByTestId('url-test-run') as HTMLButtonElement).disabled).toBe(true)
    await user.selectOptions(screen.getByTestId('url-test-method'), 'GET')
    await user.type(screen.getByLabelText('Path'), '/rest/entities/shop_Item{Enter}')
    const result = await screen.findByTestId('url-test-result')
    expect(fetchMock).toHaveBeenCalledTimes(1)
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/admin/api/url-test')
    expect(sentBodies()[0]).toEqual({ method: 'GET', path: '/rest/entities/shop_Item' })
    expect(within(result).getByTestId('url-test-verdict').textContent).toContain('Anonymous: no token needed')
    expect(within(result).getByTestId('url-test-anonymous-pattern').textContent).toContain('/rest/entities/shop_Item/**')
    expect(result.textContent).toContain('the anonymous pattern wins')
    expect(within(result).getByTestId('url-test-token').textContent).toContain('not needed')
    expect(within(result).getByTestId('url-test-runs-as').textContent).toContain('anonymous')
    expect(within(result).getByTestId('url-test-roles').textContent).toContain('item-reader')
    expect(within(result).getByTestId('url-test-route').textContent).toContain('GET /rest/entities/:entity')
  })

  it('says when a token is required, when no route exists, and when the firewall refuses the path', async () => {
    replies = [
      { status: 200, body: { ...base, method: 'PATCH', kind: 'authenticated', anonymous: null, tokenRequired: true, runsAs: null, route: null } },
      { status: 200, body: { ...base, path: '//x', normalizedPath: null, kind: 'rejected', anonymous: null, authenticated: null, runsAs: null, route: null, rejected: { status: 400, reason: 'The request path contains an empty segment' } } },
    ]
    const user = renderIn(<UrlTester candidate={null} />)
    await user.selectOptions(screen.getByTestId('url-test-method'), 'PATCH')
    await user.type(screen.getByLabelText('Path'), '/rest/entities/shop_Item')
    await user.click(screen.getByTestId('url-test-run'))
    const result = await screen.findByTestId('url-test-result')
    expect(within(result).getByTestId('url-test-verdict').textContent).toContain('Token required')
    expect(within(result).getByTestId('url-test-anonymous-pattern').textContent).toContain('none matches')
    expect(within(result).getByTestId('url-test-token').textContent).toContain('required')
    expect(within(result).getByTestId('url-test-route').textContent).toContain('no route for PATCH')
    expect(sentBodies()[0]).toMatchObject({ method: 'PATCH' })

    await user.clear(screen.getByLabelText('Path'))
    await user.type(screen.getByLabelText('Path'), '//x{Enter}')
    expect((await screen.findByTestId('url-test-rejected')).textContent).toContain('HTTP 400: The request path contains an empty segment')
  })

  it('tests the unsaved lists unless told not to', async () => {
    const candidate = { [ANONYMOUS]: ['/rest/entities/shop_Item/**'] }
    const user = renderIn(<UrlTester candidate={candidate} />)
    await user.type(screen.getByLabelText('Path'), '/rest/entities/shop_Item{Enter}')
    await screen.findByTestId('url-test-result')
    expect(sentBodies()[0]).toEqual({ method: 'GET', path: '/rest/entities/shop_Item', patterns: candidate })
    await user.click(screen.getByLabelText('Test with the unsaved pattern lists'))
    await user.click(screen.getByTestId('url-test-run'))
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2))
    expect(sentBodies()[1]).toEqual({ method: 'GET', path: '/rest/entities/shop_Item' })
  })

  it('in the URL access panel: the server refuses an unsaved row and its message shows at that row', async () => {
    replies = [
      {
        status: 400,
        body: {
          error: 'Bad request',
          details: '1 problem(s) in the request',
          problems: [{ path: `$.patterns['${ANONYMOUS}'][1]`, message: "'/**' would open every URL to anonymous callers; list the paths to open" }],
        },
      },
    ]
    const settings = [setting(ANONYMOUS, ['/rest/entities/shop_Item/**']), setting(LEGACY, []), setting(AUTHENTICATED, ['/rest/**'])]
    const user = renderIn(<UrlAccessPanel settings={settings} version={3} />)
    const list = screen.getByTestId('anonymous-patterns')
    await user.click(within(list).getByTestId('anonymous-patterns-patterns-add'))
    await user.keyboard('/**')
    expect(within(list).queryByTestId('anonymous-patterns-unsaved')).not.toBeNull()
    await user.type(screen.getByLabelText('Path'), '/rest/x{Enter}')
    const rows = await vi.waitFor(() => {
      const found = within(list).getAllByTestId('anonymous-patterns-patterns-row')
      expect(within(found[1]!).getByTestId('field-error').textContent).toContain('would open every URL')
      return found
    })
    expect(within(rows[0]!).queryByTestId('field-error')).toBeNull()
    expect(sentBodies()[0].patterns).toEqual({ [ANONYMOUS]: ['/rest/entities/shop_Item/**', '/**'] })
    expect(screen.getByTestId('url-test-error').textContent).toContain('shown at the rows')
    expect(screen.queryByTestId('url-test-result')).toBeNull()
  })
})
