import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { cleanup, render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useState } from 'react'
import { Providers } from '../../../app/providers'
import { createQueryClient } from '../../../app/query_client'
import type { ReportDefinition, ReportTemplate } from '../api/types'
import { TemplatesEditor } from './templates_editor'

const stored: ReportDefinition = {
  id: 'r1',
  name: 'Orders',
  restAccess: false,
  roles: [],
  inputParameters: [],
  bands: [],
  valueFormats: [],
  templates: [{ code: 'DEFAULT', outputType: 'XLSX', default: true, fileName: 'old.xlsx', size: 3 }],
}

const fetchMock = vi.fn(async (_url: string, _init?: RequestInit) =>
  new Response(JSON.stringify({ status: 'applied', changes: [], steps: [], risks: [], definitionVersion: 9, modelVersion: 1 }), { status: 200, headers: { ETag: '"9"' } })
)
let latest: ReportTemplate[] = []

function Harness({ onUploaded }: { onUploaded: (code: string, fileName: string, size: number) => void }) {
  const [templates, setTemplates] = useState(stored.templates)
  latest = templates
  return <TemplatesEditor report={{ ...stored, templates }} stored={stored} onChange={setTemplates} onUploaded={onUploaded} errors={{ '[1].code': 'duplicate template' }} />
}

beforeEach(() => {
  fetchMock.mockClear()
  vi.stubGlobal('fetch', fetchMock)
})
afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

describe('templates', () => {
  it("uploads a stored template's file at once (PUT …/file?fileName=, raw bytes); a new template carries its file as base64 for the save", async () => {
    const user = userEvent.setup()
    const onUploaded = vi.fn()
    render(
      <Providers client={createQueryClient()}>
        <Harness onUploaded={onUploaded} />
      </Providers>
    )
    const file = new File(['PK-bytes'], 'orders v2.xlsx', { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' })
    await user.upload(within(screen.getByTestId('template-0')).getByTestId('template-upload'), file)
    await waitFor(() => expect(onUploaded).toHaveBeenCalledWith('DEFAULT', 'orders v2.xlsx', 8))
    const [url, init] = fetchMock.mock.calls[0]!
    expect(url).toBe('/admin/api/reports/r1/templates/DEFAULT/file?fileName=orders%20v2.xlsx')
    expect(init!.method).toBe('PUT')
    expect(await (init!.body as File).text()).toBe('PK-bytes')
    expect(latest[0]).toEqual(stored.templates[0])

    await user.click(screen.getByTestId('template-add'))
    const second = screen.getByTestId('template-1')
    expect(within(second).getByTestId('field-error').textContent).toBe('duplicate template')
    await user.selectOptions(within(second).getByTestId('template-output'), 'HTML')
    await user.upload(within(second).getByTestId('template-upload'), new File(['<h1>{{x}}</h1>'], 'page.html', { type: 'text/html' }))
    await within(second).findByText('uploaded with the next save')
    expect(fetchMock).toHaveBeenCalledTimes(1)
    expect(latest[1]).toMatchObject({ fileName: 'page.html', file: `base64:${btoa('<h1>{{x}}</h1>')}` })
    expect(latest[1]!.default).toBe(false)
    await user.click(within(second).getByTestId('template-default'))
    expect(latest.map((t) => t.default)).toEqual([false, true])
  })
})
