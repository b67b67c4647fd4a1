import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { cleanup, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { MemoryRouter } from 'react-router'
import { QueryClientProvider } from '@tanstack/react-query'
import { createQueryClient } from '../../../app/query_client'
import { ApiError } from '../../../lib/api'
import type { ChangeResult } from '../../../lib/admin'
import { ImportPanel } from './import_panel'

const calls = vi.hoisted(() => ({ plan: vi.fn(), apply: vi.fn(), get: vi.fn() }))

vi.mock('../api/definition', async (original) => ({
  ...(await original<typeof import('../api/definition')>()),
  planDocument: calls.plan,
  applyDocument: calls.apply,
}))
vi.mock('../../../lib/admin', async (original) => ({
  ...(await original<typeof import('../../../lib/admin')>()),
  adminGet: calls.get,
}))

const plan: ChangeResult = {
  status: 'dry-run',
  changes: ['entity shop_Book: attribute subtitle added'],
  steps: [{ kind: 'addColumn', target: 'shop_book.subtitle', description: 'addColumn', sql: ['ALTER TABLE "shop_book" ADD COLUMN "subtitle" varchar(80)'] }],
  risks: [],
  definitionVersion: 12,
  modelVersion: 5,
}

function renderPanel() {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <MemoryRouter>
        <ImportPanel />
      </MemoryRouter>
    </QueryClientProvider>
  )
}

const doc = '{"entities":[{"name":"shop_Book","attributes":[{"name":"subtitle","type":"string","length":80}]}]}'

beforeEach(() => {
  calls.get.mockResolvedValue({ entities: [{ name: 'shop_Book', attributes: [] }] })
})
afterEach(() => {
  cleanup()
  vi.clearAllMocks()
})

describe('ImportPanel', () => {
  it('plans a pasted document, shows the diff, and applies it at the planned version', async () => {
    const user = userEvent.setup()
    calls.plan.mockResolvedValue(plan)
    calls.apply.mockResolvedValue({ ...plan, status: 'applied', definitionVersion: 13 })
    renderPanel()
    await user.click(screen.getByTestId('import-text'))
    await user.paste(doc)
    expect(screen.getByTestId('import-format').textContent).toBe('JSON')
    await user.click(screen.getByTestId('import-plan'))
    await screen.findByTestId('definition-diff')
    expect(calls.plan).toHaveBeenCalledWith({ name: '', text: doc, format: 'json' })
    expect(calls.apply).not.toHaveBeenCalled()
    expect(screen.getByTestId('diff-element').dataset.change).toBe('changed')
    expect(screen.getByTestId('plan-sql').textContent).toContain('ADD COLUMN "subtitle"')

    await user.click(screen.getByTestId('import-apply'))
    await screen.findByTestId('import-applied')
    expect(calls.apply).toHaveBeenCalledWith(expect.objectContaining({ text: doc }), { ifMatch: 12, allowDataLoss: false })
    expect(screen.getByTestId('import-applied').textContent).toContain('definition version 13')
    expect(screen.queryByTestId('definition-diff')).toBeNull()
  })

  it('shows the problems of an invalid document at their paths and offers no apply', async () => {
    const user = userEvent.setup()
    calls.plan.mockRejectedValue(
      new ApiError(
        422,
        {
          error: 'Invalid definition',
          details: '1 problem(s); nothing was changed',
          problems: [{ path: '$.entities[0].attributes[0].type', message: "unknown type 'varchar'" }],
        },
        ''
      )
    )
    renderPanel()
    await user.click(screen.getByTestId('import-text'))
    await user.paste('entities:\n  - name: shop_Book\n')
    expect(screen.getByTestId('import-format').textContent).toBe('YAML')
    await user.click(screen.getByTestId('import-plan'))
    const problems = await screen.findByTestId('import-problems')
    expect(problems.textContent).toContain('$.entities[0].attributes[0].type')
    expect(problems.textContent).toContain("unknown type 'varchar'")
    expect(screen.queryByTestId('import-apply')).toBeNull()
  })

  it('needs an explicit tick before applying a plan that loses data', async () => {
    const user = userEvent.setup()
    calls.plan.mockResolvedValue({
      ...plan,
      status: 'refused',
      risks: [{ message: 'dropping column shop_book.isbn would lose the values of 3 row(s)', overridable: true }],
    })
    calls.apply.mockResolvedValue({ ...plan, status: 'applied' })
    renderPanel()
    await user.click(screen.getByTestId('import-text'))
    await user.paste(doc)
    await user.click(screen.getByTestId('import-plan'))
    const apply = await screen.findByTestId('import-apply')
    expect(apply).toHaveProperty('disabled', true)
    await user.click(screen.getByTestId('import-accept-loss'))
    await user.click(apply)
    expect(calls.apply).toHaveBeenCalledWith(expect.anything(), { ifMatch: 12, allowDataLoss: true })
  })

  it('checks a JSON document before sending it', async () => {
    const user = userEvent.setup()
    renderPanel()
    await user.click(screen.getByTestId('import-text'))
    await user.paste('{"entities": [')
    await user.click(screen.getByTestId('import-plan'))
    expect((await screen.findByTestId('import-error')).textContent).toContain('Not valid JSON')
    expect(calls.plan).not.toHaveBeenCalled()
  })
})
