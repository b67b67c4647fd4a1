import { afterEach, describe, expect, it, vi } from 'vitest'
import { cleanup, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { createMemoryRouter, RouterProvider } from 'react-router'
import type { ModelAttribute } from '../../../lib/model'
import type { EntityRow } from '../api/schema'
import { cycleSort, parseSort, sortText } from '../hooks/use_table_state'
import { DataTable } from './data_table'

afterEach(() => {
  cleanup()
  vi.restoreAllMocks()
})

/** happy-dom lays nothing out: give the scroller the size of a desktop table. */
function layOut() {
  const proto = Object.getPrototypeOf(HTMLElement.prototype) as object
  const owner = [HTMLElement.prototype, proto, Object.getPrototypeOf(proto) as object].find((p) =>
    Object.getOwnPropertyDescriptor(p, 'clientHeight')
  )!
  vi.spyOn(owner as HTMLElement, 'clientHeight', 'get').mockReturnValue(600)
  vi.spyOn(owner as HTMLElement, 'clientWidth', 'get').mockReturnValue(1200)
}

const attributes: ModelAttribute[] = [
  { name: 'number', type: 'string' },
  { name: 'amount', type: 'decimal', scale: 2 },
  { name: 'customer', type: 'association', cardinality: 'MANY_TO_ONE', target: 'shop_Customer' },
  { name: 'lines', type: 'composition', cardinality: 'ONE_TO_MANY', target: 'shop_Line' },
]
const rows: EntityRow[] = Array.from({ length: 500 }, (_, i) => ({
  _entityName: 'shop_Order',
  _instanceName: `Order ${i}`,
  id: `id-${i}`,
  number: `N-${i}`,
  amount: i,
  customer: { _entityName: 'shop_Customer', id: 'c', _instanceName: 'Acme' },
}))

function setup(onSort = vi.fn()) {
  layOut()
  const router = createMemoryRouter(
    [
      {
        path: '/',
        element: (
          <DataTable
            entity="shop_Order"
            rows={rows}
            attributes={attributes}
            enums={[]}
            sort={[{ property: 'number', desc: true }]}
            onSort={onSort}
            captions={{ number: 'Number' }}
          />
        ),
      },
    ],
    { initialEntries: ['/'] }
  )
  render(<RouterProvider router={router} />)
  return { onSort, user: userEvent.setup() }
}

describe('data table', () => {
  it('renders only the visible part of a large page, with formatted cells', () => {
    setup()
    const rendered = screen.getAllByTestId('data-row')
    expect(rendered.length).toBeGreaterThan(5)
    expect(rendered.length).toBeLessThan(60)
    const first = rendered[0]!
    expect(first.querySelector('[data-col="customer"]')?.textContent).toBe('Acme')
    expect(first.querySelector('[data-col="amount"]')?.textContent).toBe('0.00')
    expect(screen.getAllByTestId('row-link')[0]?.getAttribute('href')).toBe('/data/shop_Order/id-0')
  })

  it('sorts by clicking headers (not to-many columns), showing the direction', async () => {
    const { onSort, user } = setup()
    expect(screen.getByTestId('col-number').getAttribute('aria-sort')).toBe('descending')
    expect(screen.getByTestId('col-number').textContent).toContain('Number')
    await user.click(screen.getByTestId('col-amount').querySelector('button')!)
    expect(onSort).toHaveBeenCalledWith('amount')
    expect(screen.getByTestId('col-lines').querySelector('button')).toBeNull()
    expect(cycleSort(parseSort('-number'), 'number')).toEqual([])
    expect(sortText(cycleSort(parseSort('number'), 'number'))).toBe('-number')
    expect(sortText(cycleSort(parseSort('-number'), 'amount'))).toBe('amount')
  })
})
