import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { cleanup, render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { Providers } from '../../../app/providers'
import { createQueryClient } from '../../../app/query_client'
import type { Setting } from '../api/settings'
import { SettingRow } from './setting_row'

let reply: { status: number; body: unknown } = { status: 200, body: {} }
const fetchMock = vi.fn(async (_url: string, _init?: RequestInit) =>
  new Response(JSON.stringify(reply.body), { status: reply.status, headers: { 'Content-Type': 'application/json' } })
)
beforeEach(() => {
  reply = { status: 200, body: { status: 'applied', changes: [], steps: [], risks: [], definitionVersion: 5, modelVersion: 1 } }
  fetchMock.mockClear()
  vi.stubGlobal('fetch', fetchMock)
})
afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

function renderRow(setting: Setting) {
  render(
    <Providers client={createQueryClient()}>
      <ul>
        <SettingRow setting={setting} version={4} />
      </ul>
    </Providers>
  )
  return userEvent.setup()
}

const base = { description: 'd', stored: null }

describe('setting row', () => {
  it('edits a list row by row; the server refusal shows at the row it names, without the property name', async () => {
    reply = {
      status: 422,
      body: {
        error: 'Invalid definition',
        details: '1 problem(s); nothing was changed',
        problems: [{ path: '$.value', message: "svc.cors.allowed-origins: origin 'ftp://x' is not allowed" }],
      },
    }
    const user = renderRow({ ...base, name: 'svc.cors.allowed-origins', type: 'list', default: [], value: ['https://a.example'], source: 'default' })
    await user.click(screen.getByTestId('setting-edit'))
    await user.click(screen.getByTestId('setting-list-add'))
    await user.keyboard('ftp://x')
    await user.click(screen.getByTestId('setting-save'))
    const rows = await screen.findAllByTestId('setting-list-row')
    await vi.waitFor(() => expect(within(rows[1]!).getByTestId('field-error').textContent).toBe("origin 'ftp://x' is not allowed"))
    expect(within(rows[0]!).queryByTestId('field-error')).toBeNull()
    const [url, init] = fetchMock.mock.calls[0]!
    expect(url).toBe('/admin/api/settings/svc.cors.allowed-origins')
    expect(JSON.parse(String(init?.body))).toEqual({ value: ['https://a.example', 'ftp://x'] })
    expect((init?.headers as Record<string, string>)['If-Match']).toBe('"4"')
  })

  it('sends an integer as a number and a duration from amount and unit', async () => {
    const user = renderRow({ ...base, name: 'svc.authserver.authorization-code-time-to-live', type: 'string', default: '5m', value: '5m', source: 'default' })
    await user.click(screen.getByTestId('setting-edit'))
    await user.clear(screen.getByLabelText('svc.authserver.authorization-code-time-to-live amount'))
    await user.type(screen.getByLabelText('svc.authserver.authorization-code-time-to-live amount'), '90')
    await user.selectOptions(screen.getByLabelText('svc.authserver.authorization-code-time-to-live unit'), 's')
    await user.click(screen.getByTestId('setting-save'))
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1))
    expect(JSON.parse(String(fetchMock.mock.calls[0]?.[1]?.body))).toEqual({ value: '90s' })
  })

  it('removing a stored value says which value then applies, from where', async () => {
    const user = renderRow({
      ...base,
      name: 'svc.rest.max-bulk-size',
      type: 'int',
      default: 10000,
      value: 500,
      source: 'database',
      stored: 500,
      fallback: { value: 2000, source: 'env' },
    })
    expect(screen.getByTestId('setting-source').textContent).toBe('stored')
    expect(screen.getByTestId('setting-svc.rest.max-bulk-size').textContent).toContain('Without the stored value: 2000 (environment)')
    await user.click(screen.getByTestId('setting-reset'))
    const dialog = await screen.findByTestId('confirm-dialog')
    expect(dialog.textContent).toContain('Then 2000 applies, from the environment variable SVC_REST_MAX_BULK_SIZE.')
    await user.click(screen.getByTestId('confirm-ok'))
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1))
    expect(fetchMock.mock.calls[0]?.[1]?.method).toBe('DELETE')
  })
})
