import { afterEach, describe, expect, it, vi } from 'vitest'
import { cleanup, render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { MemoryRouter } from 'react-router'
import { Providers } from '../../../app/providers'
import { createQueryClient } from '../../../app/query_client'
import type { ModelEntity } from '../../../lib/model'
import { AttributeDialog } from './attribute_dialog'
import type { AttributeContext } from './attribute_form'
import { EntityAttributesPanel } from './entity_attributes_panel'

const item: ModelEntity = {
  name: 'shop_Item',
  table: 'shop_item',
  attributes: [{ name: 'title', type: 'string', length: 80 }],
}
const customer: ModelEntity = {
  name: 'shop_Customer',
  attributes: [
    { name: 'favourite', type: 'association', cardinality: 'MANY_TO_ONE', target: 'shop_Item' },
  ],
}
const context: AttributeContext = {
  entityName: 'shop_Item',
  entities: [item, customer],
  enums: [{ name: 'shop.Colour', values: [{ name: 'RED', id: 'R' }] }],
  locales: ['en', 'de'],
}

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

const visible = (testId: string) => screen.queryByTestId(testId) !== null

describe('attribute editor', () => {
  it('shows the validation keys of the chosen type, and sends only those', async () => {
    const user = userEvent.setup()
    const onSubmit = vi.fn()
    render(
      <MemoryRouter>
        <AttributeDialog
          open
          context={context}
          errors={{}}
          submitLabel="Review change"
          onSubmit={onSubmit}
          onClose={() => {}}
        />
      </MemoryRouter>
    )
    const type = await screen.findByTestId('attribute-type')
    // string: length and pattern; no numeric range, no precision.
    expect(visible('attribute-length')).toBe(true)
    expect(visible('attribute-pattern')).toBe(true)
    expect(visible('attribute-min')).toBe(false)
    expect(visible('attribute-precision')).toBe(false)
    await user.type(screen.getByTestId('attribute-length'), '40')

    await user.selectOptions(type, 'decimal')
    for (const key of ['precision', 'scale', 'min', 'max'])
      expect(visible(`attribute-${key}`)).toBe(true)
    expect(visible('attribute-length')).toBe(false)
    expect(visible('attribute-pattern')).toBe(false)

    await user.selectOptions(type, 'int')
    expect(visible('attribute-min')).toBe(true)
    expect(visible('attribute-precision')).toBe(false)
    expect(screen.getByTestId('attribute-min').getAttribute('step')).toBe('1')

    await user.selectOptions(type, 'enum')
    expect(
      within(screen.getByTestId('attribute-enum')).getByRole('option', { name: /shop\.Colour/ })
    ).toBeTruthy()
    expect(visible('attribute-min')).toBe(false)

    await user.selectOptions(type, 'date')
    expect(visible('no-type-keys')).toBe(true)
    expect(visible('attribute-min')).toBe(false)
    expect(visible('attribute-unique')).toBe(true)

    await user.selectOptions(type, 'association')
    expect(visible('attribute-target')).toBe(true)
    expect(visible('cardinality-MANY_TO_MANY')).toBe(true)
    expect(visible('attribute-unique')).toBe(false)
    expect(visible('attribute-transient')).toBe(false)

    // A composition is one-to-many or one-to-one only.
    await user.selectOptions(type, 'composition')
    expect(visible('cardinality-MANY_TO_ONE')).toBe(false)
    expect(visible('cardinality-ONE_TO_MANY')).toBe(true)

    // Back to decimal: what the relation had is gone, the string's length too.
    await user.selectOptions(type, 'decimal')
    await user.type(screen.getByTestId('attribute-name'), 'price')
    await user.type(screen.getByTestId('attribute-precision'), '10')
    await user.click(screen.getByTestId('attribute-mandatory'))
    await user.type(screen.getByTestId('attribute-caption-de'), 'Preis')
    await user.click(screen.getByTestId('attribute-save'))
    expect(onSubmit).toHaveBeenCalledWith({
      name: 'price',
      type: 'decimal',
      precision: 10,
      mandatory: true,
      caption: { de: 'Preis' },
    })
  })

  it('offers the inverse candidates of a one-to-many relation', async () => {
    const user = userEvent.setup()
    render(
      <MemoryRouter>
        <AttributeDialog
          open
          context={context}
          errors={{}}
          submitLabel="Review change"
          onSubmit={() => {}}
          onClose={() => {}}
        />
      </MemoryRouter>
    )
    await user.selectOptions(await screen.findByTestId('attribute-type'), 'association')
    await user.type(screen.getByTestId('attribute-target'), 'Cust')
    await user.click(await screen.findByRole('option', { name: /shop_Customer/ }))
    await user.click(screen.getByTestId('cardinality-ONE_TO_MANY'))
    const mappedBy = screen.getByTestId('attribute-mapped-by')
    expect(within(mappedBy).getByRole('option', { name: 'shop_Customer.favourite' })).toBeTruthy()
  })

  it("shows a 422 problem of the server's dry run at its field, and applies nothing", async () => {
    const calls: { url: string; method: string; headers: Record<string, string>; body: unknown }[] =
      []
    vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
      calls.push({
        url,
        method: init.method ?? 'GET',
        headers: init.headers as Record<string, string>,
        body: JSON.parse(String(init.body)),
      })
      const problems = [{ path: '$.name', message: "invalid attribute name '9bad'" }]
      return new Response(
        JSON.stringify({
          error: 'Invalid definition',
          details: '1 problem(s); nothing was changed',
          problems,
        }),
        {
          status: 422,
          headers: { 'Content-Type': 'application/json' },
        }
      )
    })
    const user = userEvent.setup()
    render(
      <Providers client={createQueryClient()}>
        <MemoryRouter>
          <EntityAttributesPanel
            entity={item}
            version={7}
            context={context}
            highlight={null}
            onReload={() => {}}
          />
        </MemoryRouter>
      </Providers>
    )
    await user.click(screen.getByTestId('add-attribute'))
    await user.type(await screen.findByTestId('attribute-name'), '9bad')
    await user.click(screen.getByTestId('attribute-save'))

    const name = screen.getByTestId('attribute-name')
    await waitFor(() => expect(name.getAttribute('aria-invalid')).toBe('true'))
    const error = document.getElementById(name.getAttribute('aria-describedby')!.split(' ').pop()!)
    expect(error?.textContent).toBe("invalid attribute name '9bad'")
    expect(error?.getAttribute('data-testid')).toBe('field-error')
    // One dry run, pinned to the version the page read; no plan dialog, nothing applied.
    expect(calls).toHaveLength(1)
    expect(calls[0]!.url).toBe('/admin/api/entities/shop_Item/attributes?dryRun=true')
    expect(calls[0]!.method).toBe('POST')
    expect(calls[0]!.headers['If-Match']).toBe('"7"')
    expect(calls[0]!.body).toEqual({ name: '9bad', type: 'string' })
    expect(screen.queryByTestId('plan-dialog')).toBeNull()
    expect(screen.getByTestId('attribute-dialog')).toBeTruthy()
  })
})
