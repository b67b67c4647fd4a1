import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { cleanup, render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { Providers } from '../../../app/providers'
import { createQueryClient } from '../../../app/query_client'
import type { ModelEntity } from '../../../lib/model'
import type { EntityRow } from '../api/schema'
import { RowEditor } from './row_editor'

const order: ModelEntity = {
  name: 'shop_Order',
  traits: ['versioned'],
  attributes: [
    { name: 'number', type: 'string', mandatory: true, length: 20 },
    { name: 'note', type: 'text' },
    {
      name: 'lines',
      type: 'composition',
      cardinality: 'ONE_TO_MANY',
      target: 'shop_Line',
      mappedBy: 'order',
    },
  ],
}
const line: ModelEntity = {
  name: 'shop_Line',
  attributes: [
    { name: 'order', type: 'association', cardinality: 'MANY_TO_ONE', target: 'shop_Order' },
    { name: 'qty', type: 'int' },
  ],
}
const byName = new Map([order, line].map((e) => [e.name, e]))
const row: EntityRow = {
  _entityName: 'shop_Order',
  _instanceName: 'A-1',
  id: 'o1',
  version: 4,
  number: 'A-1',
  note: 'old',
  lines: [{ _entityName: 'shop_Line', id: 'l1', qty: 2 }],
}

type Answer = { status: number; body?: unknown }
let answers: Record<string, Answer[]> = {}
const calls: { method: string; url: string; body: unknown }[] = []

beforeEach(() => {
  answers = {}
  calls.length = 0
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const method = init.method ?? 'GET'
      calls.push({ method, url, body: init.body ? JSON.parse(String(init.body)) : undefined })
      const key = `${method} ${url.split('?')[0]}`
      const answer = answers[key]?.shift() ?? {
        status: 200,
        body: key.startsWith('GET /rest/metadata') ? [] : {},
      }
      return new Response(answer.body === undefined ? '' : JSON.stringify(answer.body), {
        status: answer.status,
      })
    })
  )
})
afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

function setup(reload = vi.fn(async () => {})) {
  const router = createMemoryRouter(
    [
      {
        path: '/data/:entity/:id',
        element: <RowEditor entity={order} byName={byName} enums={[]} row={row} reload={reload} />,
      },
      { path: '/data/:entity', element: <p>list</p> },
    ],
    { initialEntries: ['/data/shop_Order/o1'] }
  )
  render(
    <Providers client={createQueryClient()}>
      <RouterProvider router={router} />
    </Providers>
  )
  return { user: userEvent.setup(), reload, router }
}

const fieldOf = (testId: string) => screen.getByTestId(testId).closest('.field') as HTMLElement

describe('row editor', () => {
  it('sends only the changed values with the version, and shows the server violations at their fields', async () => {
    answers['PUT /rest/entities/shop_Order/o1'] = [
      {
        status: 400,
        body: [
          { message: 'size must be between 0 and 20', path: 'number', invalidValue: 'x' },
          { message: 'must be greater than or equal to 1', path: 'lines[0].qty', invalidValue: 0 },
        ],
      },
    ]
    const { user } = setup()
    expect((screen.getByTestId('row-save') as HTMLButtonElement).disabled).toBe(true)
    await user.clear(screen.getByTestId('input-number'))
    await user.type(screen.getByTestId('input-number'), 'X'.repeat(21))
    await user.click(screen.getByTestId('row-save'))
    await screen.findByTestId('write-error')
    const put = calls.find((c) => c.method === 'PUT')!
    expect(put.body).toEqual({ number: 'X'.repeat(21), version: 4 })
    expect(within(fieldOf('input-number')).getByTestId('field-error').textContent).toBe(
      'size must be between 0 and 20'
    )
    expect(within(fieldOf('input-lines[0].qty')).getByTestId('field-error').textContent).toBe(
      'must be greater than or equal to 1'
    )
    expect(within(fieldOf('input-note')).queryByTestId('field-error')).toBeNull()
    expect(screen.getByTestId('input-number').getAttribute('aria-invalid')).toBe('true')
  })

  it('explains an optimistic-lock conflict with the stored values and reloads on request', async () => {
    answers['PUT /rest/entities/shop_Order/o1'] = [
      { status: 409, body: { error: 'Optimistic lock', details: 'has version 5, not 4' } },
    ]
    answers['GET /rest/entities/shop_Order/o1'] = [
      { status: 200, body: { ...row, version: 5, note: 'theirs' } },
    ]
    const { user, reload } = setup()
    await user.clear(screen.getByTestId('input-note'))
    await user.type(screen.getByTestId('input-note'), 'mine')
    await user.click(screen.getByTestId('row-save'))
    const conflict = await screen.findByTestId('conflict')
    await waitFor(() =>
      expect(within(conflict).getByTestId('conflict-server').textContent).toBe('theirs')
    )
    expect(within(conflict).getByTestId('conflict-row').textContent).toContain('mine')
    expect(conflict.textContent).toContain('version 5')
    await user.click(within(conflict).getByTestId('conflict-reapply'))
    expect(reload).toHaveBeenCalledWith({ note: 'mine' })
    await user.click(within(conflict).getByTestId('conflict-reload'))
    expect(reload).toHaveBeenLastCalledWith(undefined)
  })

  it('asks before leaving with unsaved changes', async () => {
    const { user, router } = setup()
    await user.type(screen.getByTestId('input-note'), ' and more')
    await user.click(screen.getByRole('button', { name: 'Cancel' }))
    await screen.findByTestId('confirm-dialog')
    await user.click(screen.getByRole('button', { name: 'Cancel' }))
    expect(router.state.location.pathname).toBe('/data/shop_Order/o1')
    await user.click(screen.getByRole('button', { name: 'Cancel' }))
    await user.click(await screen.findByTestId('confirm-ok'))
    await screen.findByText('list')
    expect(router.state.location.pathname).toBe('/data/shop_Order')
  })

  it('asks before deleting and deletes only after confirmation; a 403 is explained', async () => {
    answers['DELETE /rest/entities/shop_Order/o1'] = [
      { status: 403, body: { error: 'Forbidden', details: 'Deletion forbidden' } },
    ]
    const { user } = setup()
    await user.click(screen.getByTestId('row-delete'))
    await screen.findByTestId('confirm-dialog')
    await user.click(screen.getByRole('button', { name: 'Cancel' }))
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false)
    await user.click(screen.getByTestId('row-delete'))
    await user.click(await screen.findByTestId('confirm-ok'))
    const error = await screen.findByTestId('write-error')
    expect(calls.filter((c) => c.method === 'DELETE')).toHaveLength(1)
    expect(error.textContent).toContain('Your roles do not allow this')
    expect(error.textContent).toContain('Deletion forbidden')
  })
})
