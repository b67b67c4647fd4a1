import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { cleanup, render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { MemoryRouter } from 'react-router'
import { Providers } from '../../../app/providers'
import { createQueryClient } from '../../../app/query_client'
import type { User } from '../api/users'
import { NewUserPage } from './new_user_page'
import { UserAccess } from './user_access'

type Reply = { status: number; body: unknown }
let replies: Record<string, Reply[]> = {}
const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
  const key = `${init?.method ?? 'GET'} ${url.replace(/\?.*$/, '')}`
  const reply = replies[key]?.shift() ?? { status: 200, body: { roles: [] } }
  return new Response(JSON.stringify(reply.body), {
    status: reply.status,
    headers: { 'Content-Type': 'application/json', 'ETag': '"5"' },
  })
})
const sent = (key: string) =>
  fetchMock.mock.calls
    .filter(([url, init]) => `${init?.method ?? 'GET'} ${url.replace(/\?.*$/, '')}` === key)
    .map(([, init]) => JSON.parse(String(init?.body ?? 'null')))

beforeEach(() => {
  replies = {
    'GET /admin/api/resource-roles': [
      {
        status: 200,
        body: {
          roles: [
            { code: 'rest-minimal', name: 'REST', builtIn: true },
            { code: 'clerk', name: 'Clerk' },
          ],
        },
      },
    ],
    'GET /admin/api/row-level-roles': [{ status: 200, body: { roles: [] } }],
  }
  fetchMock.mockClear()
  vi.stubGlobal('fetch', fetchMock)
})
afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

const renderPage = (node: React.ReactNode) =>
  render(
    <Providers client={createQueryClient()}>
      <MemoryRouter>{node}</MemoryRouter>
    </Providers>
  )

const alice: User = {
  username: 'alice',
  firstName: 'Alice',
  lastName: null,
  email: null,
  locale: null,
  timeZone: null,
  active: true,
  resourceRoles: ['system-admin'],
  rowLevelRoles: [],
  builtIn: false,
  createdAt: null,
  updatedAt: null,
}

async function addRole(user: ReturnType<typeof userEvent.setup>, code: string) {
  await user.type(screen.getByTestId('resource-roles-input'), code)
  await user.click(await screen.findByRole('option', { name: new RegExp(code) }))
}

describe('new user page', () => {
  it("shows the server's 422 problems at their fields ($.email, $.resourceRoles[1])", async () => {
    const user = userEvent.setup()
    replies['POST /admin/api/users'] = [
      {
        status: 422,
        body: {
          error: 'Invalid definition',
          details: '2 problem(s); nothing was changed',
          problems: [
            { path: '$.email', message: 'must be an e-mail address' },
            { path: '$.resourceRoles[1]', message: "unknown role 'clerk'" },
          ],
        },
      },
    ]
    renderPage(<NewUserPage />)
    await user.type(screen.getByTestId('user-username'), 'alice')
    await user.type(screen.getByTestId('user-email'), 'not-an-address')
    await addRole(user, 'rest-minimal')
    await addRole(user, 'clerk')
    await user.click(screen.getByTestId('user-create'))

    const email = screen.getByTestId('user-email')
    expect(email.getAttribute('aria-invalid')).toBe('true')
    expect(
      within(email.closest('.field') as HTMLElement).getByTestId('field-error').textContent
    ).toBe('must be an e-mail address')
    const chips = screen.getAllByTestId('resource-roles-chip')
    expect(chips[1]!.className).toContain('chip--bad')
    expect(
      within(screen.getByTestId('resource-roles')).getByTestId('field-error').textContent
    ).toContain("unknown role 'clerk'")
    expect(sent('POST /admin/api/users')[0]).toMatchObject({
      username: 'alice',
      email: 'not-an-address',
      generatePassword: true,
      resourceRoles: ['rest-minimal', 'clerk'],
      active: true,
    })
  })

  it('shows a generated password once, with its warning', async () => {
    const user = userEvent.setup()
    replies['POST /admin/api/users'] = [
      {
        status: 201,
        body: {
          status: 'applied',
          changes: [],
          steps: [],
          risks: [],
          definitionVersion: 6,
          modelVersion: 1,
          user: alice,
          password: 'Gen-erated-passw0rd-123',
        },
      },
    ]
    renderPage(<NewUserPage />)
    await user.type(screen.getByTestId('user-username'), 'alice')
    await user.click(screen.getByTestId('user-create'))
    const value = (await screen.findByTestId('generated-password-value')) as HTMLInputElement
    expect(value.value).toBe('Gen-erated-passw0rd-123')
    expect(screen.getByTestId('generated-password-warning').textContent).toMatch(
      /Shown only this once/
    )
    expect(screen.getByTestId('open-created-user').getAttribute('href')).toBe('/users/alice')
  })
})

describe('user access panel', () => {
  it('asks before deactivating, says tokens stop at once, and shows the last-admin refusal', async () => {
    const user = userEvent.setup()
    const message =
      "'alice' is the last active user with the admin role (system-admin, policy admin.api): deactivating it would lock everyone out"
    replies['POST /admin/api/users/alice/deactivate'] = [
      {
        status: 422,
        body: {
          error: 'Invalid definition',
          details: `${message}; nothing was changed`,
          problems: [{ path: '$.active', message }],
        },
      },
    ]
    renderPage(<UserAccess user={alice} onPassword={() => {}} />)
    await user.click(screen.getByTestId('user-deactivate'))
    const dialog = await screen.findByTestId('confirm-dialog')
    expect(dialog.textContent).toMatch(/stops working at once/)
    await user.click(within(dialog).getByTestId('confirm-ok'))
    const refusal = await screen.findByTestId('user-access-error')
    expect(refusal.textContent).toContain('nothing was changed')
    expect(refusal.textContent).toContain('last active user with the admin role')
  })

  it('generates a new password and hands it up to be shown once', async () => {
    const user = userEvent.setup()
    const shown = vi.fn()
    replies['POST /admin/api/users/alice/password'] = [
      {
        status: 200,
        body: {
          status: 'applied',
          changes: [],
          steps: [],
          risks: [],
          definitionVersion: 7,
          modelVersion: 1,
          user: alice,
          password: 'New-generated-1',
        },
      },
    ]
    renderPage(<UserAccess user={alice} onPassword={shown} />)
    await user.click(screen.getByTestId('user-reset-password'))
    const dialog = await screen.findByTestId('password-dialog')
    expect(dialog.textContent).toMatch(/stop at once/)
    await user.click(within(dialog).getByTestId('password-confirm'))
    await vi.waitFor(() => expect(shown).toHaveBeenCalledWith('New-generated-1'))
    expect(sent('POST /admin/api/users/alice/password')[0]).toEqual({})
  })
})
