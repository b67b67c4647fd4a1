import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { cleanup, render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { MemoryRouter } from 'react-router'
import { Providers } from '../../../app/providers'
import { createQueryClient } from '../../../app/query_client'
import type { MessageEntry } from '../api/messages'
import { TranslationsPage } from './translations_page'

const entry = (key: string, stored: string | null, fallback: string, defaultSource: MessageEntry['defaultSource'] = 'name'): MessageEntry => ({
  key,
  stored,
  default: fallback,
  defaultSource,
})

const data: Record<string, MessageEntry[]> = {
  en: [entry('shop.Size', null, 'Size'), entry('shop.Size.SMALL', null, 'Small'), entry('shop_Item', null, 'Item', 'caption'), entry('shop_Item.title', 'Title', 'Title')],
  de: [entry('shop.Size', null, 'Size'), entry('shop.Size.SMALL', 'Klein', 'Small'), entry('shop_Item', null, 'Artikel', 'caption'), entry('shop_Item.title', null, 'Title')],
}

let putReply: { status: number; body: unknown } = { status: 200, body: {} }
const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
  const json = (body: unknown, status = 200) =>
    new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ETag: '"7"' } })
  if (init?.method === 'PUT') return json(putReply.body, putReply.status)
  if (url === '/admin/api/messages') return json({ locales: ['en', 'de'], stored: { de: 1, en: 1 } })
  if (url === '/admin/api/enums') return json([{ name: 'shop.Size', values: [{ name: 'SMALL', id: 'S' }] }])
  const locale = /\/admin\/api\/messages\/(\w+)$/.exec(url)?.[1] ?? ''
  return json({ locale, available: true, messages: data[locale] ?? [] })
})
const puts = () => fetchMock.mock.calls.filter(([, init]) => init?.method === 'PUT')

// happy-dom lays nothing out: the scroller gets a size so the virtualizer renders rows.
beforeEach(() => {
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(600)
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(1200)
  vi.spyOn(HTMLElement.prototype, 'offsetHeight', 'get').mockReturnValue(40)
  putReply = { status: 200, body: { status: 'applied', changes: [], steps: [], risks: [], definitionVersion: 8, modelVersion: 1 } }
  fetchMock.mockClear()
  vi.stubGlobal('fetch', fetchMock)
})
afterEach(() => {
  vi.restoreAllMocks()
  cleanup()
  vi.unstubAllGlobals()
})

function renderPage(path = '/translations') {
  render(
    <MemoryRouter initialEntries={[path]}>
      <Providers client={createQueryClient()}>
        <TranslationsPage />
      </Providers>
    </MemoryRouter>
  )
  return userEvent.setup()
}
const row = (key: string) => screen.getAllByTestId('translation-row').find((r) => r.dataset.key === key)

describe('translations grid', () => {
  it('shows keys x locales, marks missing cells, filters to only missing and by search', async () => {
    const user = renderPage()
    await screen.findByTestId('translation-grid')
    expect(screen.getAllByTestId('translation-row').map((r) => r.dataset.key)).toEqual(['shop.Size', 'shop.Size.SMALL', 'shop_Item', 'shop_Item.title'])
    expect(within(row('shop.Size.SMALL')!).getByTestId('cell-de').dataset.missing).toBeUndefined()
    expect(within(row('shop.Size.SMALL')!).getByTestId('cell-en').dataset.missing).toBe('true')
    // A caption is a translation: not missing, shown as the placeholder.
    const item = within(row('shop_Item')!).getByLabelText('shop_Item in de') as HTMLInputElement
    expect(item.value).toBe('')
    expect(item.placeholder).toBe('Artikel')
    expect(row('shop_Item')!.textContent).toContain('entity')
    expect(row('shop.Size.SMALL')!.textContent).toContain('enum value')

    await user.click(screen.getByTestId('only-missing'))
    expect(screen.getAllByTestId('translation-row').map((r) => r.dataset.key)).toEqual(['shop.Size', 'shop.Size.SMALL', 'shop_Item.title'])
    await user.type(screen.getByTestId('translations-search'), 'klein')
    expect(screen.getAllByTestId('translation-row').map((r) => r.dataset.key)).toEqual(['shop.Size.SMALL'])
    expect(screen.getByTestId('translations-count').textContent).toBe('1 of 4 keys')
  })

  it('saves the edits in one PUT per locale, an emptied cell as null', async () => {
    const user = renderPage()
    await screen.findByTestId('translation-grid')
    await user.type(screen.getByLabelText('shop_Item.title in de'), 'Titel')
    await user.clear(screen.getByLabelText('shop.Size.SMALL in de'))
    await user.type(screen.getByLabelText('shop.Size in en'), 'Size')
    expect(screen.getByTestId('unsaved-count').textContent).toBe('3 unsaved changes (de, en)')
    await user.click(screen.getByTestId('translations-save'))
    await vi.waitFor(() => expect(puts()).toHaveLength(2))
    const [de, en] = puts()
    expect(de?.[0]).toBe('/admin/api/messages/de')
    expect(JSON.parse(String(de?.[1]?.body))).toEqual({ 'shop_Item.title': 'Titel', 'shop.Size.SMALL': null })
    expect((de?.[1]?.headers as Record<string, string>)['If-Match']).toBe('"7"')
    expect(JSON.parse(String(en?.[1]?.body))).toEqual({ 'shop.Size': 'Size' })
    // The second save is pinned to the version the first one produced.
    expect((en?.[1]?.headers as Record<string, string>)['If-Match']).toBe('"8"')
  })

  it("shows the server's refusal at its cell and keeps the edit", async () => {
    putReply = {
      status: 422,
      body: {
        error: 'Invalid definition',
        details: '1 problem(s); nothing was changed',
        problems: [{ path: "$['shop_Item.title']", message: 'a text must not be longer than 4000 characters' }],
      },
    }
    const user = renderPage()
    await screen.findByTestId('translation-grid')
    await user.type(screen.getByLabelText('shop_Item.title in de'), 'Titel')
    await user.click(screen.getByTestId('translations-save'))
    const cell = within(row('shop_Item.title')!).getByTestId('cell-de')
    expect((await within(cell).findByTestId('field-error')).textContent).toContain('4000 characters')
    expect((screen.getByLabelText('shop_Item.title in de') as HTMLInputElement).value).toBe('Titel')
    expect(screen.getByTestId('unsaved-count').textContent).toBe('1 unsaved change (de)')
  })

  it('renders only the visible rows of a long list (virtualized)', async () => {
    const many = Array.from({ length: 400 }, (_, i) => entry(`shop_Big.field${String(i).padStart(3, '0')}`, null, `Field ${i}`))
    data.en = many
    data.de = many
    renderPage()
    await screen.findByTestId('translation-grid')
    const shown = screen.getAllByTestId('translation-row').length
    expect(shown).toBeGreaterThan(5)
    expect(shown).toBeLessThan(60)
    expect(screen.getByTestId('translations-count').textContent).toBe('400 keys')
  })
})
