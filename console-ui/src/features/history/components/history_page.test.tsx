import { afterEach, describe, expect, it, vi } from 'vitest'
import { cleanup, render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { QueryClientProvider } from '@tanstack/react-query'
import { createQueryClient } from '../../../app/query_client'
import { HistoryPage } from './history_page'
import { diffJson } from '../../../components/diff/json_diff_tree'

const adminGet = vi.hoisted(() => vi.fn())
vi.mock('../../../lib/admin', async (original) => ({
  ...(await original<typeof import('../../../lib/admin')>()),
  adminGet,
}))

const entry = {
  id: 5,
  at: '2026-03-01T10:00:00.000Z',
  author: { kind: 'user', name: 'admin' },
  source: 'admin-api',
  definitionVersion: 9,
  changes: ['entity shop_Book: attribute title changed'],
  elements: [{ section: 'entities', element: 'shop_Book', change: 'changed' }],
}
const detail = {
  ...entry,
  elements: [
    {
      ...entry.elements[0],
      before: { name: 'shop_Book', attributes: [{ name: 'title', type: 'string', length: 100 }, { name: 'isbn', type: 'string' }] },
      after: { name: 'shop_Book', attributes: [{ name: 'title', type: 'string', length: 200 }, { name: 'isbn', type: 'string' }] },
    },
  ],
}

function answer(path: string) {
  if (path.startsWith('audit/')) return Promise.resolve(detail)
  if (path.startsWith('audit')) return Promise.resolve({ total: 1, entries: [entry] })
  if (path.startsWith('changelog'))
    return Promise.resolve({
      total: 1,
      entries: [{ id: 1, modelVersion: 3, operation: 'addColumn', target: 'shop_book', sql: 'ALTER TABLE "shop_book" ADD "x" int', source: 'admin-api', appliedAt: entry.at }],
    })
  return Promise.resolve([])
}

function renderAt(url: string) {
  adminGet.mockImplementation(answer)
  const router = createMemoryRouter([{ path: '/history', element: <HistoryPage /> }], { initialEntries: [url] })
  render(
    <QueryClientProvider client={createQueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  )
  return router
}

afterEach(() => {
  cleanup()
  vi.clearAllMocks()
})

describe('json diff', () => {
  it('matches array items by name: one changed attribute is one change', () => {
    const root = diffJson(detail.elements[0]!.before, detail.elements[0]!.after)
    expect(root).toMatchObject({ kind: 'nested', changed: 1 })
    expect(diffJson(undefined, { a: 1 })).toEqual({ kind: 'added', value: { a: 1 } })
    expect(diffJson([1, 2], [1, 3])).toEqual({ kind: 'changed', before: [1, 2], after: [1, 3] })
  })
})

describe('HistoryPage', () => {
  it('opens the changelog by default with its SQL', async () => {
    renderAt('/history')
    expect(screen.getByRole('tab', { name: 'Schema changelog' }).getAttribute('aria-selected')).toBe('true')
    const row = await screen.findByTestId('changelog-row')
    expect(row.textContent).toContain('ALTER TABLE "shop_book" ADD "x" int')
    expect(adminGet).toHaveBeenCalledWith('changelog?offset=0&limit=50', expect.anything())
  })

  it('opens the audit tab from the URL, filters by element and shows an entry diff', async () => {
    const user = userEvent.setup()
    const router = renderAt('/history?tab=audit')
    expect(screen.getByRole('tab', { name: 'Audit trail' }).getAttribute('aria-selected')).toBe('true')
    const card = await screen.findByTestId('audit-entry')
    expect(within(card).getByTestId('audit-author').textContent).toBe('admin')

    await user.type(screen.getByTestId('audit-element-filter'), 'shop_Book{Enter}')
    await waitFor(() => expect(router.state.location.search).toContain('element=shop_Book'))
    await waitFor(() =>
      expect(adminGet).toHaveBeenCalledWith('audit?offset=0&limit=20&element=shop_Book', expect.anything())
    )

    await user.click(within(card).getByTestId('audit-toggle'))
    const diff = await within(card).findByTestId('json-diff')
    const changed = within(diff).getByTestId('diff-changed')
    expect(changed.textContent).toMatch(/length.*100.*200/)
    expect(diff.textContent).not.toContain('isbn')
    expect(adminGet).toHaveBeenCalledWith('audit/5', expect.anything())
  })

  it('keeps the chosen tab in the URL', async () => {
    const user = userEvent.setup()
    const router = renderAt('/history')
    await user.click(screen.getByRole('tab', { name: 'Audit trail' }))
    expect(router.state.location.search).toBe('?tab=audit')
    await screen.findByTestId('audit-entry')
  })
})
