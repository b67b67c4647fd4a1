// @vitest-environment happy-dom
import { useState } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { cleanup, render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { QueryClientProvider } from '@tanstack/react-query'
import { createQueryClient } from '../../../app/query_client'
import type { ModelEntity } from '../../../lib/model'
import { PolicyEditor } from './policy_editor'
import { SeeAsPanel } from './see_as_panel'
import { newPolicy, policyBody, type PolicyDraft } from './row_policy_model'

const ENTITIES: ModelEntity[] = [
  {
    name: 'acc_Note',
    attributes: [
      { name: 'title', type: 'string' },
      { name: 'owner', type: 'string' },
      { name: 'pages', type: 'int' },
    ],
  },
]

function Editor({ initial, errors = {} }: { initial?: PolicyDraft; errors?: Record<string, string> }) {
  const [draft, setDraft] = useState<PolicyDraft>(initial ?? newPolicy('acc_Note'))
  return (
    <>
      <PolicyEditor index={0} value={draft} onChange={setDraft} onRemove={() => {}} entities={ENTITIES} enums={[]} errors={errors} />
      <pre data-testid="out">{JSON.stringify(policyBody(draft))}</pre>
    </>
  )
}

const out = () => JSON.parse(screen.getByTestId('out').textContent ?? '{}')

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

describe('row-level policy editor (the shared filter builder with placeholders)', () => {
  it('builds owner = :current_user_username and a predicate with its actions', async () => {
    const user = userEvent.setup()
    render(<Editor />)
    await user.click(screen.getByTestId('filter-add-condition'))
    await user.selectOptions(screen.getByTestId('filter-path-segment'), 'owner')
    await user.selectOptions(screen.getByTestId('filter-operator'), '=')
    await user.selectOptions(screen.getByTestId('filter-placeholder'), ':current_user_username')
    expect(out()).toEqual({
      entity: 'acc_Note',
      type: 'filter',
      actions: ['read'],
      filter: { conditions: [{ property: 'owner', operator: '=', value: ':current_user_username' }] },
    })
    expect(screen.getByTestId('rule-text').textContent).toBe('In words: owner = :current_user_username')
    await user.selectOptions(screen.getByTestId('policy-type'), 'predicate')
    await user.click(screen.getByTestId('policy-action-update'))
    await user.click(screen.getByTestId('policy-action-delete'))
    expect(out().type).toBe('predicate')
    expect(out().actions).toEqual(['read', 'update', 'delete'])
  })

  it('raw JSON: what is typed is sent; text that does not parse is shown at the field', async () => {
    const user = userEvent.setup()
    render(<Editor />)
    await user.click(screen.getByTestId('rule-mode-json'))
    const text = screen.getByTestId('rule-json')
    await user.clear(text)
    await user.click(text)
    await user.paste('{"conditions": [{"property": "pages", "operator": ">", "value": 10}]}')
    expect(out().filter).toEqual({ conditions: [{ property: 'pages', operator: '>', value: 10 }] })
    // Back to the builder, which shows the same condition.
    await user.click(screen.getByTestId('rule-mode-builder'))
    expect((screen.getByTestId('filter-path-segment') as HTMLSelectElement).value).toBe('pages')
    await user.click(screen.getByTestId('rule-mode-json'))
    await user.type(screen.getByTestId('rule-json'), '}}')
    expect(within(screen.getByTestId('policy-0')).getByTestId('field-error').textContent).toMatch(/^Not valid JSON/)
    expect((screen.getByTestId('rule-mode-builder') as HTMLButtonElement).disabled).toBe(true)
  })

  it("the server's refusal of the rule is shown at the rule", () => {
    render(<Editor errors={{ filter: 'Property for acc_Note not found: nope' }} />)
    expect(within(screen.getByTestId('policy-0')).getByTestId('field-error').textContent).toBe(
      'Property for acc_Note not found: nope'
    )
  })
})

interface Posted {
  entity: string
  user?: string
  rowLevelRole?: { policies: { filter: unknown }[] }
}

function stubPreview(answer: (body: Posted) => { status: number; body: unknown }) {
  const posted: Posted[] = []
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      if (!String(url).endsWith('/admin/api/row-preview')) return new Response('{}', { status: 404 })
      const body = JSON.parse(String(init.body)) as Posted
      posted.push(body)
      const reply = answer(body)
      return new Response(JSON.stringify(reply.body), { status: reply.status, headers: { 'Content-Type': 'application/json' } })
    })
  )
  return posted
}

const ROLE = {
  code: 'own-notes',
  policies: [{ entity: 'acc_Note', type: 'filter', actions: ['read'], filter: { conditions: [{ property: 'owner', operator: '=', value: ':current_user_username' }] } }],
}

describe('see as', () => {
  it('previews the unsaved role as the user, next to what the user reads today', async () => {
    const posted = stubPreview((body) => ({
      status: 200,
      body: body.rowLevelRole
        ? {
            entity: 'acc_Note',
            canRead: true,
            count: 2,
            sql: { text: 'select count(*) from acc_note where owner = ?', bindings: ['nora'] },
            rows: [
              { _entityName: 'acc_Note', id: '00000000-0000-4000-8000-000000000001', title: 'one', owner: 'nora' },
              { _entityName: 'acc_Note', id: '00000000-0000-4000-8000-000000000002', title: 'two', owner: 'nora' },
            ],
          }
        : { entity: 'acc_Note', canRead: true, count: 5, sql: null, rows: [] },
    }))
    render(
      <QueryClientProvider client={createQueryClient()}>
        <SeeAsPanel role={ROLE} entities={['acc_Note']} allEntities={['acc_Note']} initialSubject={{ kind: 'user', name: 'nora' }} />
      </QueryClientProvider>
    )
    expect((await screen.findByTestId('see-as-count')).textContent).toBe('2')
    await waitFor(() => expect(screen.getByTestId('see-as-now').textContent).toBe(' (today: 5)'))
    expect(screen.getByTestId('see-as-sql').textContent).toContain('owner = ?')
    expect(screen.getByTestId('see-as-sql').textContent).toContain('["nora"]')
    expect(within(screen.getByTestId('see-as-rows')).getAllByRole('row')).toHaveLength(3)
    const draft = posted.find((p) => p.rowLevelRole)!
    expect(draft).toMatchObject({ entity: 'acc_Note', user: 'nora', rowLevelRole: ROLE })
  })

  it('a rule the server cannot parse is reported, at the policy through onProblems', async () => {
    stubPreview(() => ({
      status: 400,
      body: {
        error: 'Bad request',
        details: '1 problem(s) in the request',
        problems: [{ path: '$.rowLevelRole.policies[0].filter', message: 'Property for acc_Note not found: nope' }],
      },
    }))
    const onProblems = vi.fn()
    render(
      <QueryClientProvider client={createQueryClient()}>
        <SeeAsPanel role={ROLE} entities={['acc_Note']} allEntities={['acc_Note']} initialSubject={{ kind: 'user', name: 'nora' }} onProblems={onProblems} />
      </QueryClientProvider>
    )
    expect((await screen.findByTestId('see-as-problems')).textContent).toContain('not found: nope')
    await waitFor(() => expect(onProblems).toHaveBeenLastCalledWith({ 'policies[0].filter': 'Property for acc_Note not found: nope' }))
    expect(screen.queryByTestId('see-as-count')).toBeNull()
  })

  it('an incomplete rule is not previewed', () => {
    const posted = stubPreview(() => ({ status: 500, body: {} }))
    render(
      <QueryClientProvider client={createQueryClient()}>
        <SeeAsPanel role={null} entities={['acc_Note']} allEntities={['acc_Note']} initialSubject={{ kind: 'user', name: 'nora' }} />
      </QueryClientProvider>
    )
    expect(screen.getByTestId('see-as-incomplete').textContent).toContain('nora')
    expect(posted.filter((p) => p.rowLevelRole)).toEqual([])
  })
})
