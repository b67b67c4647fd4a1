import { afterEach, describe, expect, it } from 'vitest'
import { useState } from 'react'
import { cleanup, render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { ModelEntity, ModelEnum } from '../../lib/model'
import { FilterBuilder } from './filter_builder'
import { emptyFilter, filterProblems, operatorsFor, type Filter } from './filter'

afterEach(cleanup)

const entities: ModelEntity[] = [
  {
    name: 'shop_Customer',
    traits: ['audited'],
    attributes: [
      { name: 'name', type: 'string' },
      { name: 'vip', type: 'boolean' },
      {
        name: 'orders',
        type: 'association',
        cardinality: 'ONE_TO_MANY',
        target: 'shop_Order',
        mappedBy: 'customer',
      },
    ],
  },
  {
    name: 'shop_Order',
    attributes: [
      { name: 'number', type: 'string' },
      { name: 'amount', type: 'decimal' },
      { name: 'date', type: 'date' },
      { name: 'status', type: 'enum', enum: 'shop_Status' },
      {
        name: 'customer',
        type: 'association',
        cardinality: 'MANY_TO_ONE',
        target: 'shop_Customer',
      },
      { name: 'total', type: 'decimal', transient: true },
    ],
  },
]
const enums: ModelEnum[] = [
  {
    name: 'shop_Status',
    values: [
      { name: 'NEW', id: 'N' },
      { name: 'PAID', id: 'P', caption: { en: 'Paid' } },
    ],
  },
]

/** Renders the builder with its own state; `last()` is the newest filter it produced. */
function setup(
  initial: Filter = emptyFilter(),
  extra: { placeholders?: string[]; errors?: Record<string, string> } = {}
) {
  const seen: Filter[] = []
  function Harness() {
    const [value, setValue] = useState(initial)
    return (
      <FilterBuilder
        entity="shop_Order"
        entities={entities}
        enums={enums}
        value={value}
        {...extra}
        onChange={(next) => {
          seen.push(next)
          setValue(next)
        }}
      />
    )
  }
  render(<Harness />)
  return { user: userEvent.setup(), last: () => seen[seen.length - 1] }
}

describe('filter builder', () => {
  it('builds a condition on a path through a relation', async () => {
    const { user, last } = setup()
    await user.click(screen.getByTestId('filter-add-condition'))
    await user.selectOptions(screen.getByLabelText('Condition 1 property'), 'customer')
    // The reference itself: identity operators, an id value.
    expect(last()).toEqual({ conditions: [{ property: 'customer', operator: '=', value: '' }] })
    await user.selectOptions(screen.getByLabelText('Condition 1 property of shop_Customer'), 'name')
    await user.selectOptions(screen.getByLabelText('Condition 1 operator'), 'startsWith')
    await user.type(screen.getByLabelText('Condition 1 value'), 'Ac')
    expect(last()).toEqual({
      conditions: [{ property: 'customer.name', operator: 'startsWith', value: 'Ac' }],
    })
    // Transient attributes are not offered (the server refuses them).
    const first = screen.getByLabelText('Condition 1 property') as HTMLSelectElement
    expect([...first.options].map((o) => o.value)).not.toContain('total')
    expect([...first.options].map((o) => o.value)).toContain('id')
  })

  it('offers the operators of the property type and drops the ones that no longer apply', async () => {
    const { user, last } = setup({
      conditions: [{ property: 'number', operator: 'contains', value: 'A' }],
    })
    const ops = () =>
      [...(screen.getByLabelText('Condition 1 operator') as HTMLSelectElement).options].map(
        (o) => o.value
      )
    expect(ops()).toEqual(operatorsFor('string'))
    expect(ops()).toContain('doesNotContain')

    await user.selectOptions(screen.getByLabelText('Condition 1 property'), 'amount')
    expect(ops()).not.toContain('contains')
    expect(ops()).toContain('>=')
    expect(last()?.conditions[0]).toEqual({ property: 'amount', operator: '=', value: '' })

    await user.selectOptions(screen.getByLabelText('Condition 1 property'), 'status')
    expect(ops()).toEqual(['=', '<>', 'in', 'notIn', 'isNull', 'notEmpty'])
    // Enum values are chosen by name, shown with their caption.
    await user.selectOptions(screen.getByLabelText('Condition 1 value'), 'PAID')
    expect(screen.getByRole('option', { name: 'Paid (PAID)' })).toBeTruthy()
    await user.selectOptions(screen.getByLabelText('Condition 1 operator'), 'in')
    expect(last()?.conditions[0]).toEqual({ property: 'status', operator: 'in', value: ['PAID'] })
    await user.click(screen.getByTestId('filter-list-add'))
    await user.selectOptions(screen.getByLabelText('Condition 1 value 2'), 'NEW')
    expect(last()?.conditions[0]).toEqual({
      property: 'status',
      operator: 'in',
      value: ['PAID', 'NEW'],
    })

    await user.selectOptions(screen.getByLabelText('Condition 1 operator'), 'isNull')
    expect(last()?.conditions[0]).toEqual({ property: 'status', operator: 'isNull' })
    expect(screen.queryByLabelText('Condition 1 value')).toBeNull()
  })

  it('nests an OR group with a condition through a to-many relation', async () => {
    const { user, last } = setup({
      conditions: [{ property: 'date', operator: '>=', value: '2024-01-01' }],
    })
    await user.click(screen.getAllByTestId('filter-add-group')[0]!)
    const group = screen.getByTestId('filter-group')
    expect((within(group).getByTestId('filter-group-operator') as HTMLSelectElement).value).toBe(
      'OR'
    )
    await user.selectOptions(within(group).getByLabelText('Condition 2.1 property'), 'customer')
    await user.selectOptions(
      within(group).getByLabelText('Condition 2.1 property of shop_Customer'),
      'vip'
    )
    await user.selectOptions(within(group).getByLabelText('Condition 2.1 value'), 'true')
    await user.click(within(group).getByTestId('filter-add-condition'))
    await user.selectOptions(within(group).getByLabelText('Condition 2.2 property'), 'number')
    await user.selectOptions(within(group).getByLabelText('Condition 2.2 operator'), 'notEmpty')
    expect(last()).toEqual({
      conditions: [
        { property: 'date', operator: '>=', value: '2024-01-01' },
        {
          group: 'OR',
          conditions: [
            { property: 'customer.vip', operator: '=', value: true },
            { property: 'number', operator: 'notEmpty' },
          ],
        },
      ],
    })
    await user.selectOptions(within(group).getByTestId('filter-group-operator'), 'AND')
    expect((last()?.conditions[1] as { group: string }).group).toBe('AND')
    await user.click(screen.getByRole('button', { name: 'Remove group 2' }))
    expect(last()?.conditions).toHaveLength(1)
  })

  it('shows errors at their condition, offers placeholders, and reports incomplete conditions', async () => {
    const filter: Filter = {
      conditions: [
        { property: 'number', operator: '=', value: '' },
        { group: 'OR', conditions: [{ property: 'customer.name', operator: '=', value: 'x' }] },
      ],
    }
    expect(filterProblems(filter, entities, 'shop_Order')).toEqual({
      'conditions[0].value': 'Enter a value',
    })
    const { user, last } = setup(filter, {
      placeholders: [':current_user_username'],
      errors: {
        'conditions[1].conditions[0].value': 'Too long',
        'conditions[7]': 'Somewhere else',
      },
    })
    const [first, second] = screen.getAllByTestId('filter-condition')
    expect(within(second!).getByTestId('filter-error').textContent).toBe('Too long')
    expect(within(first!).queryByTestId('filter-error')).toBeNull()
    // An error pointing at no element is shown on top, with its path.
    expect(screen.getAllByTestId('filter-error').map((e) => e.textContent)).toContain(
      'conditions[7]: Somewhere else'
    )
    await user.selectOptions(
      within(first!).getByTestId('filter-placeholder'),
      ':current_user_username'
    )
    expect(last()?.conditions[0]).toEqual({
      property: 'number',
      operator: '=',
      value: ':current_user_username',
    })
    expect(within(first!).queryByLabelText('Condition 1 value')).toBeNull()
  })
})
