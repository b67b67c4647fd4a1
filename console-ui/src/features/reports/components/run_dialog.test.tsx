import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { cleanup, render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { MemoryRouter } from 'react-router'
import { Providers } from '../../../app/providers'
import { createQueryClient } from '../../../app/query_client'
import type { ReportDefinition } from '../api/types'
import { RunForm } from './run_dialog'

const report: ReportDefinition = {
  id: 'r1',
  name: 'Orders',
  restAccess: false,
  roles: [],
  inputParameters: [
    { name: 'Customer name', alias: 'who', type: 'TEXT', required: true },
    { name: 'Since', alias: 'since', type: 'DATE', defaultValue: '2024-01-01' },
    { name: 'Secret', alias: 'secret', type: 'TEXT', hidden: true, defaultValue: 'x' },
  ],
  bands: [],
  valueFormats: [],
  templates: [
    { code: 'DEFAULT', outputType: 'XLSX', default: true },
    { code: 'CSV', outputType: 'CSV' },
  ],
}

let next: () => Response
const fetchMock = vi.fn(async (url: string, _init?: RequestInit) => {
  if (url.startsWith('/admin/api/enums')) return new Response('[]', { status: 200 })
  return next()
})
const runCalls = () => fetchMock.mock.calls.filter(([url]) => url === '/admin/api/reports/r1/run')
let clicked: { href: string; download: string }[] = []

beforeEach(() => {
  fetchMock.mockClear()
  clicked = []
  vi.stubGlobal('fetch', fetchMock)
  URL.createObjectURL = vi.fn(() => 'blob:doc')
  URL.revokeObjectURL = vi.fn()
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    clicked.push({ href: this.href, download: this.download })
  })
})
afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

const renderForm = () =>
  render(
    <Providers client={createQueryClient()}>
      <MemoryRouter>
        <RunForm report={report} />
      </MemoryRouter>
    </Providers>
  )

describe('run form', () => {
  it('asks for the visible parameters (defaults filled), shows the server error at the parameter it names, nothing downloaded', async () => {
    const user = userEvent.setup()
    renderForm()
    expect(screen.queryByTestId('run-param-secret')).toBeNull()
    expect((screen.getByTestId('run-param-since') as HTMLInputElement).value).toBe('2024-01-01')
    await user.type(screen.getByTestId('run-param-who'), 'Acme')
    await user.selectOptions(screen.getByTestId('run-template'), 'CSV')
    next = () => new Response(JSON.stringify({ error: 'Run report error', details: "Parameter since: the date 2024-01-01 is before the first order" }), { status: 400 })
    await user.click(screen.getByTestId('run-submit'))
    const since = (await screen.findByText(/before the first order/)).closest('.field')!
    expect(since.querySelector('[data-testid="run-param-since"]')).toBeTruthy()
    expect(screen.getByTestId('run-param-since').getAttribute('aria-invalid')).toBe('true')
    expect(screen.getByTestId('run-param-who').getAttribute('aria-invalid')).toBeNull()
    expect(screen.queryByTestId('run-error')).toBeNull()
    expect(clicked).toEqual([])
    expect(JSON.parse(String(runCalls()[0]![1]!.body))).toEqual({
      template: 'CSV',
      attachment: true,
      parameters: [
        { name: 'who', value: 'Acme' },
        { name: 'since', value: '2024-01-01' },
        { name: 'secret', value: 'x' },
      ],
    })
  })

  it('downloads the document under the name of its Content-Disposition', async () => {
    const user = userEvent.setup()
    renderForm()
    await user.type(screen.getByTestId('run-param-who'), 'Acme')
    next = () =>
      new Response('a,b\n1,2\n', {
        status: 200,
        headers: { 'Content-Type': 'application/csv', 'Content-Disposition': 'attachment; filename="Orders+Acme.csv"' },
      })
    await user.click(screen.getByTestId('run-submit'))
    await waitFor(() => expect(clicked).toEqual([{ href: 'blob:doc', download: 'Orders Acme.csv' }]))
    expect(await screen.findByText('Downloaded Orders Acme.csv')).toBeTruthy()
  })

  it('shows an error that names no parameter above the button', async () => {
    const user = userEvent.setup()
    renderForm()
    await user.type(screen.getByTestId('run-param-who'), 'Acme')
    next = () => new Response(JSON.stringify({ error: 'Template not found', details: 'Template with code CSV not found for report r1' }), { status: 400 })
    await user.click(screen.getByTestId('run-submit'))
    expect((await screen.findByTestId('run-error')).textContent).toContain('Template not found')
  })
})
