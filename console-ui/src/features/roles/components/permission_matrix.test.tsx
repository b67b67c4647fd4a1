// @vitest-environment happy-dom
import { useState } from 'react'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { cleanup, render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { PermissionMatrix, type MatrixEntity } from './permission_matrix'
import { fromPolicies, matrixProblems, toPolicies, type MatrixState } from './matrix_model'
import type { AttributePolicy, EntityPolicy } from '../api/roles'

const ENTITIES: MatrixEntity[] = [
  { name: 'shop_Item', attributes: [{ name: 'title', type: 'string' }, { name: 'cost', type: 'decimal' }] },
  { name: 'shop_Order', attributes: [{ name: 'number', type: 'string' }] },
  { name: 'shop_Secret', attributes: [] },
]

type Policies = { entityPolicies: EntityPolicy[]; attributePolicies: AttributePolicy[] }

/** The matrix with its state, and the policy lists it would save. */
function Harness({ initial, errors }: { initial?: Policies; errors?: Record<string, string> }) {
  const original = initial ?? { entityPolicies: [], attributePolicies: [] }
  const [state, setState] = useState<MatrixState>(fromPolicies(original.entityPolicies, original.attributePolicies))
  return (
    <>
      <PermissionMatrix entities={ENTITIES} value={state} onChange={setState} errors={errors} />
      <pre data-testid="out">{JSON.stringify(toPolicies(state, original))}</pre>
    </>
  )
}

const out = (): Policies => JSON.parse(screen.getByTestId('out').textContent ?? '{}')

afterEach(cleanup)

// happy-dom lays nothing out: give the matrix's scroll box a size so the virtualizer shows rows.
const sizes = { clientHeight: 800, clientWidth: 1000 }
const real = Object.fromEntries(
  Object.keys(sizes).map((key) => [key, Object.getOwnPropertyDescriptor(HTMLElement.prototype, key)])
)
beforeAll(() => {
  for (const [key, value] of Object.entries(sizes))
    Object.defineProperty(HTMLElement.prototype, key, { configurable: true, get: () => value })
})
afterAll(() => {
  for (const [key, descriptor] of Object.entries(real)) if (descriptor) Object.defineProperty(HTMLElement.prototype, key, descriptor)
})

describe('permission matrix', () => {
  it('toggling cells produces one entity policy per entity, in CRUD order', async () => {
    const user = userEvent.setup()
    render(<Harness />)
    await screen.findByTestId('row-shop_Item')
    await user.click(screen.getByTestId('cell-shop_Order-update'))
    await user.click(screen.getByTestId('cell-shop_Order-read'))
    await user.click(screen.getByTestId('cell-shop_Item-read'))
    expect(out().entityPolicies).toEqual([
      { entity: 'shop_Item', actions: ['read'] },
      { entity: 'shop_Order', actions: ['read', 'update'] },
    ])
    await user.click(screen.getByTestId('cell-shop_Order-update'))
    await user.click(screen.getByTestId('cell-shop_Order-read'))
    expect(out().entityPolicies).toEqual([{ entity: 'shop_Item', actions: ['read'] }])
    expect(out().attributePolicies).toEqual([])
  })

  it('the * row grants every entity: the entity cells show it and cannot add to it', async () => {
    const user = userEvent.setup()
    render(<Harness />)
    await screen.findByTestId('row-shop_Item')
    await user.click(screen.getByTestId('cell-*-read'))
    await user.click(screen.getByTestId('attr-*-*-view'))
    expect(out()).toEqual({
      entityPolicies: [{ entity: '*', actions: ['read'] }],
      attributePolicies: [{ entity: '*', attributes: ['*'], action: 'VIEW' }],
    })
    const inherited = screen.getByTestId('cell-shop_Item-read') as HTMLInputElement
    expect(inherited.checked).toBe(true)
    expect(inherited.disabled).toBe(true)
    expect(inherited.dataset.implied).toBe('true')
    expect((screen.getByTestId('cell-shop_Item-create') as HTMLInputElement).disabled).toBe(false)
    // Modify on every attribute implies view: the lists say MODIFY only.
    await user.click(screen.getByTestId('attr-*-*-modify'))
    expect(out().attributePolicies).toEqual([{ entity: '*', attributes: ['*'], action: 'MODIFY' }])
  })

  it('attributes of an opened entity: view, modify, and hidden by default', async () => {
    const user = userEvent.setup()
    render(<Harness />)
    await screen.findByTestId('row-shop_Item')
    await user.click(screen.getByTestId('expand-shop_Item'))
    const title = screen.getByTestId('row-shop_Item.title')
    expect(within(title).getByText('hidden')).toBeTruthy()
    await user.click(screen.getByTestId('attr-shop_Item-title-view'))
    await user.click(screen.getByTestId('attr-shop_Item-cost-modify'))
    expect(out().attributePolicies).toEqual([
      { entity: 'shop_Item', attributes: ['title'], action: 'VIEW' },
      { entity: 'shop_Item', attributes: ['cost'], action: 'MODIFY' },
    ])
    // Removing view removes modify too; the entity's own `*` column covers every attribute.
    await user.click(screen.getByTestId('attr-shop_Item-cost-view'))
    await user.click(screen.getByTestId('attr-shop_Item-*-view'))
    expect(out().attributePolicies).toEqual([{ entity: 'shop_Item', attributes: ['title', '*'], action: 'VIEW' }])
    expect((screen.getByTestId('attr-shop_Item-cost-view') as HTMLInputElement).dataset.implied).toBe('true')
  })

  it('bulk actions act on the rows the filter shows; clear all empties the role', async () => {
    const user = userEvent.setup()
    render(<Harness />)
    await screen.findByTestId('row-shop_Item')
    await user.type(screen.getByTestId('matrix-filter'), 'order')
    expect(screen.queryByTestId('row-shop_Item')).toBeNull()
    expect(screen.getByTestId('matrix-grant-read').textContent).toBe('Grant read on the 1 shown')
    await user.click(screen.getByTestId('matrix-grant-read'))
    expect(out().entityPolicies).toEqual([{ entity: 'shop_Order', actions: ['read'] }])
    await user.clear(screen.getByTestId('matrix-filter'))
    await user.click(screen.getByTestId('matrix-grant-read'))
    expect(out().entityPolicies.map((p) => p.entity)).toEqual(['shop_Item', 'shop_Order', 'shop_Secret'])
    await user.click(screen.getByTestId('matrix-only-granted'))
    expect(screen.getByTestId('matrix-count').textContent).toContain('3 with permissions')
    await user.click(screen.getByTestId('matrix-clear'))
    expect(out()).toEqual({ entityPolicies: [], attributePolicies: [] })
    expect(screen.getByText('No entity matches the filter.')).toBeTruthy()
  })

  it('an unchanged matrix gives back the role policies as they were (saving changes nothing)', async () => {
    const initial: Policies = {
      entityPolicies: [
        { entity: 'shop_Order', actions: ['update', 'read'] },
        { entity: 'shop_Item', actions: ['all'] },
      ],
      attributePolicies: [{ entity: 'shop_Item', attributes: ['cost', 'title'], action: 'VIEW' }],
    }
    const user = userEvent.setup()
    render(<Harness initial={initial} />)
    await screen.findByTestId('row-shop_Item')
    expect((screen.getByTestId('cell-shop_Item-delete') as HTMLInputElement).checked).toBe(true)
    expect(out()).toEqual(initial)
    await user.click(screen.getByTestId('cell-shop_Item-delete'))
    await user.click(screen.getByTestId('cell-shop_Item-delete'))
    expect(out()).toEqual(initial)
    await user.click(screen.getByTestId('cell-shop_Order-delete'))
    // Changed: canonical lists, entities in the order the role had them.
    expect(out().entityPolicies).toEqual([
      { entity: 'shop_Order', actions: ['read', 'update', 'delete'] },
      { entity: 'shop_Item', actions: ['create', 'read', 'update', 'delete'] },
    ])
  })

  it('a role naming an entity the model lacks shows it, with the server problem at its row', async () => {
    const initial: Policies = { entityPolicies: [{ entity: 'shop_Gone', actions: ['read'] }], attributePolicies: [] }
    const { cells } = matrixProblems(
      [
        { path: '$.entityPolicies[0].entity', message: "unknown entity 'shop_Gone'" },
        { path: '$.name', message: 'too long' },
      ],
      initial
    )
    render(<Harness initial={initial} errors={cells} />)
    const row = await screen.findByTestId('row-shop_Gone')
    expect(within(row).getByText('not in the model')).toBeTruthy()
    expect(within(row).getByTestId('field-error').textContent).toBe("unknown entity 'shop_Gone'")
  })
})

describe('matrixProblems', () => {
  it('maps attribute problems to their cell and leaves the others', () => {
    const sent: Policies = {
      entityPolicies: [],
      attributePolicies: [{ entity: 'shop_Item', attributes: ['title', 'nope'], action: 'VIEW' }],
    }
    const { cells, rest } = matrixProblems(
      [
        { path: '$.attributePolicies[0].attributes[1]', message: 'unknown attribute' },
        { path: '$.attributePolicies[0].action', message: 'must be VIEW or MODIFY' },
        { path: '$.childRoles[0]', message: 'unknown role' },
      ],
      sent
    )
    expect(cells).toEqual({ 'attr:shop_Item.nope': 'unknown attribute', 'entity:shop_Item': 'must be VIEW or MODIFY' })
    expect(rest).toEqual([{ path: '$.childRoles[0]', message: 'unknown role' }])
  })
})
