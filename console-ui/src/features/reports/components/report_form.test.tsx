import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { cleanup, render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { MemoryRouter } from 'react-router'
import { Providers } from '../../../app/providers'
import { createQueryClient } from '../../../app/query_client'
import type { ReportDefinition } from '../api/types'
import { ReportForm } from './report_form'

type Reply = { status: number; body: unknown }
let replies: Record<string, Reply[]> = {}
const model = [
  {
    name: 'shop_Order',
    attributes: [
      { name: 'number', type: 'string' },
      { name: 'total', type: 'decimal' },
      { name: 'customer', type: 'association', cardinality: 'MANY_TO_ONE', target: 'shop_Customer' },
    ],
  },
  { name: 'shop_Customer', attributes: [{ name: 'name', type: 'string' }] },
]
const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
  const key = `${init?.method ?? 'GET'} ${url.replace(/\?.*$/, '')}`
  const fallback: Record<string, unknown> = {
    'GET /admin/api/entities': model,
    'GET /admin/api/enums': [],
    'GET /admin/api/reports': { reports: [], groups: [{ id: 'g1', title: 'Sales' }] },
    'GET /admin/api/resource-roles': { roles: [{ code: 'clerk', name: 'Clerk' }] },
  }
  const reply = replies[key]?.shift() ?? { status: 200, body: fallback[key] ?? {} }
  return new Response(JSON.stringify(reply.body), { status: reply.status, headers: { 'Content-Type': 'application/json', 'ETag': '"5"' } })
})
const sent = (key: string) => fetchMock.mock.calls.filter(([url, init]) => `${init?.method ?? 'GET'} ${url}` === key)

beforeEach(() => {
  replies = {}
  fetchMock.mockClear()
  vi.stubGlobal('fetch', fetchMock)
})
afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

const renderForm = (report?: ReportDefinition, version: number | null = null) =>
  render(
    <Providers client={createQueryClient()}>
      <MemoryRouter>
        <ReportForm report={report} version={version} />
      </MemoryRouter>
    </Providers>
  )

const plan = { status: 'dry-run', changes: ['report Orders: changed'], steps: [], risks: [], definitionVersion: 5, modelVersion: 1 }

describe('report editor', () => {
  it("shows the dry run's 422 problems at their fields, counted on their tabs", async () => {
    const user = userEvent.setup()
    renderForm()
    await user.type(screen.getByTestId('report-name'), 'Orders')
    await user.click(screen.getByTestId('report-tab-parameters'))
    await user.click(screen.getByTestId('param-add'))
    await user.type(screen.getByTestId('param-alias'), 'from date')
    await user.click(screen.getByTestId('report-tab-bands'))
    await user.click(screen.getByTestId('band-add'))
    await user.click(screen.getByTestId('dataset-add'))
    replies['POST /admin/api/reports'] = [
      {
        status: 422,
        body: {
          error: 'Invalid definition',
          details: '2 problems',
          problems: [
            { path: '$.inputParameters[0].alias', message: 'must be a Latin identifier' },
            { path: '$.bands[0].datasets[0].entity', message: 'unknown entity' },
          ],
        },
      },
    ]
    await user.click(screen.getByTestId('report-save'))
    const entityError = await within(screen.getByTestId('dataset-0')).findByTestId('field-error')
    expect(entityError.textContent).toBe('unknown entity')
    expect(screen.getByTestId('report-tab-parameters').textContent).toBe('Parameters1')
    expect(screen.getByTestId('report-tab-bands').textContent).toBe('Bands & data1')
    await user.click(screen.getByTestId('report-tab-parameters'))
    expect(within(screen.getByTestId('param-0')).getByTestId('field-error').textContent).toBe('must be a Latin identifier')
    const body = JSON.parse(String(sent('POST /admin/api/reports?dryRun=true')[0]![1]!.body)) as ReportDefinition
    expect(body.name).toBe('Orders')
    expect(body.inputParameters).toEqual([{ name: '', alias: 'from date', type: 'TEXT', required: false, hidden: false }])
    expect(body.bands).toEqual([{ name: 'Band1', orientation: 'HORIZONTAL', datasets: [{ type: 'query', entity: '' }], children: [] }])
    expect(screen.queryByTestId('plan-dialog')).toBeNull()
  })

  it('builds a band tree (child, rename, remove), then saves with PUT and If-Match after the plan', async () => {
    const user = userEvent.setup()
    const stored: ReportDefinition = {
      id: 'r1',
      name: 'Orders',
      restAccess: false,
      roles: [],
      inputParameters: [],
      bands: [{ name: 'Orders', orientation: 'HORIZONTAL', datasets: [{ type: 'query', entity: 'shop_Order', fields: ['number'] }], children: [] }],
      valueFormats: [],
      templates: [{ code: 'DEFAULT', outputType: 'XLSX', default: true, fileName: 'o.xlsx', sha256: 'ab', size: 3 }],
    }
    renderForm(stored, 5)
    await user.click(screen.getByTestId('report-tab-bands'))
    await user.click(screen.getByTestId('band-add-child'))
    await user.clear(screen.getByTestId('band-name'))
    await user.type(screen.getByTestId('band-name'), 'Lines')
    await user.click(screen.getByTestId('band-add-child'))
    expect(screen.getAllByTestId('band-item').map((b) => b.textContent)).toEqual(['Orders1 dataset', 'Lines0 datasets', 'Band10 datasets'])
    await user.click(screen.getByTestId('band-remove'))
    await user.click(screen.getAllByTestId('band-item')[0]!)
    await user.selectOptions(within(screen.getByTestId('dataset-fields')).getByTestId('dataset-fields-add'), 'customer.name')
    replies['PUT /admin/api/reports/r1'] = [
      { status: 200, body: plan },
      { status: 200, body: { ...plan, status: 'applied', definitionVersion: 6 } },
    ]
    await user.click(screen.getByTestId('report-save'))
    await screen.findByTestId('plan-dialog')
    await user.click(screen.getByTestId('plan-apply'))
    await waitFor(() => expect(sent('PUT /admin/api/reports/r1')).toHaveLength(1))
    const [, init] = sent('PUT /admin/api/reports/r1')[0]!
    expect((init!.headers as Record<string, string>)['If-Match']).toBe('"5"')
    const body = JSON.parse(String(init!.body)) as ReportDefinition
    expect(body.bands).toEqual([
      {
        name: 'Orders',
        orientation: 'HORIZONTAL',
        datasets: [{ type: 'query', entity: 'shop_Order', fields: ['number', 'customer.name'] }],
        children: [{ name: 'Lines', orientation: 'HORIZONTAL', datasets: [], children: [] }],
      },
    ])
    expect(body.templates).toEqual([{ code: 'DEFAULT', outputType: 'XLSX', default: true, fileName: 'o.xlsx' }])
  })
})
