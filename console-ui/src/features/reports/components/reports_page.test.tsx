import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { cleanup, render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { MemoryRouter } from 'react-router'
import { Providers } from '../../../app/providers'
import { createQueryClient } from '../../../app/query_client'
import type { ReportList } from '../api/types'
import { ReportsPage } from './reports_page'

type Reply = { status: number; body: unknown }
let replies: Record<string, Reply[]> = {}
let list: ReportList
/** When set, list reads never answer (only the client's own rollback can restore a value). */
let holdList = false
const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
  const key = `${init?.method ?? 'GET'} ${url.replace(/\?.*$/, '')}`
  if (holdList && key === 'GET /admin/api/reports') return new Promise<Response>(() => {})
  const reply = replies[key]?.shift() ?? (key === 'GET /admin/api/reports' ? { status: 200, body: list } : { status: 200, body: {} })
  return new Response(JSON.stringify(reply.body), { status: reply.status, headers: { 'Content-Type': 'application/json', 'ETag': '"7"' } })
})
const calls = (key: string) => fetchMock.mock.calls.filter(([url, init]) => `${init?.method ?? 'GET'} ${url.replace(/\?.*$/, '')}` === key)

beforeEach(() => {
  list = {
    groups: [
      { id: 'g1', title: 'Sales' },
      { id: 'g2', title: 'Letters' },
    ],
    reports: [
      { id: 'r1', name: 'Orders by month', code: 'ORDERS', group: { id: 'g1', title: 'Sales' }, restAccess: false, roles: [], parameters: 2, lastRun: { startedAt: new Date().toISOString(), outcome: 'success' }, templates: [{ code: 'DEFAULT', outputType: 'XLSX', default: true }] },
      { id: 'r2', name: 'Customer letter', group: { id: 'g2', title: 'Letters' }, restAccess: true, roles: [], parameters: 1, lastRun: null, templates: [{ code: 'DOCX', outputType: 'DOCX', default: true }, { code: 'PDF', outputType: 'PDF' }] },
    ],
  }
  replies = {}
  holdList = false
  fetchMock.mockClear()
  vi.stubGlobal('fetch', fetchMock)
})
afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

const renderPage = () =>
  render(
    <Providers client={createQueryClient()}>
      <MemoryRouter initialEntries={['/reports']}>
        <ReportsPage />
      </MemoryRouter>
    </Providers>
  )

const row = (name: string) => screen.getAllByTestId('report-row').find((r) => r.textContent?.includes(name))!

describe('reports list', () => {
  it('shows group, outputs, parameter count and last run; filters by text and by group', async () => {
    const user = userEvent.setup()
    renderPage()
    await screen.findByTestId('reports-table')
    const orders = row('Orders by month')
    expect(within(orders).getByText('Sales')).toBeTruthy()
    expect(within(orders).getByText('XLSX')).toBeTruthy()
    expect(within(orders).getByText('success')).toBeTruthy()
    expect(within(row('Customer letter')).getByText('never')).toBeTruthy()
    expect(within(row('Customer letter')).getByText('PDF')).toBeTruthy()

    await user.type(screen.getByTestId('reports-filter'), 'letter')
    await waitFor(() => expect(screen.getAllByTestId('report-row')).toHaveLength(1))
    expect(screen.getByTestId('reports-count').textContent).toBe('1 of 2')
    await user.clear(screen.getByTestId('reports-filter'))
    await user.selectOptions(screen.getByTestId('reports-group-filter'), 'g1')
    await waitFor(() => expect(screen.getAllByTestId('report-row').map((r) => r.dataset.report)).toEqual(['ORDERS']))
  })

  it('switches the REST flag at once (PATCH {restAccess}) and keeps it when the server agrees', async () => {
    const user = userEvent.setup()
    renderPage()
    await screen.findByTestId('reports-table')
    replies['PATCH /admin/api/reports/r1'] = [{ status: 200, body: { status: 'applied', changes: [], steps: [], risks: [], definitionVersion: 8, modelVersion: 1 } }]
    list = { ...list, reports: list.reports.map((r) => (r.id === 'r1' ? { ...r, restAccess: true } : r)) }
    const toggle = within(row('Orders by month')).getByTestId('report-rest')
    expect(toggle.getAttribute('aria-checked')).toBe('false')
    await user.click(toggle)
    expect(toggle.getAttribute('aria-checked')).toBe('true')
    await waitFor(() => expect(calls('PATCH /admin/api/reports/r1')).toHaveLength(1))
    expect(JSON.parse(String(calls('PATCH /admin/api/reports/r1')[0]![1]!.body))).toEqual({ restAccess: true })
    expect(await screen.findByText('Available through the REST API')).toBeTruthy()
    expect(within(row('Orders by month')).getByTestId('report-rest').getAttribute('aria-checked')).toBe('true')
  })

  it('puts the flag back and says why when the server refuses', async () => {
    const user = userEvent.setup()
    renderPage()
    await screen.findByTestId('reports-table')
    let release!: () => void
    const gate = new Promise<void>((resolve) => (release = resolve))
    fetchMock.mockImplementationOnce(async () => {
      await gate
      return new Response(JSON.stringify({ error: 'Definition error', details: 'Report r2 is locked' }), { status: 409 })
    })
    const toggle = within(row('Customer letter')).getByTestId('report-rest')
    holdList = true
    await user.click(toggle)
    expect(toggle.getAttribute('aria-checked')).toBe('false')
    release()
    await waitFor(() => expect(within(row('Customer letter')).getByTestId('report-rest').getAttribute('aria-checked')).toBe('true'))
    expect(await screen.findByText(/The REST flag was not cleared: Report r2 is locked/)).toBeTruthy()
  })
})
