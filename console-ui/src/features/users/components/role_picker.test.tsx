import { afterEach, describe, expect, it } from 'vitest'
import { useState } from 'react'
import { cleanup, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { RoleOption } from '../api/role_options'
import { RolePicker } from './role_picker'

afterEach(cleanup)

const options: RoleOption[] = [
  { code: 'system-admin', name: 'Administration', builtIn: true },
  { code: 'rest-minimal', name: 'REST: minimal access', builtIn: true },
  { code: 'order-clerk', name: 'Order clerk' },
]

function Harness({
  initial,
  itemErrors,
}: {
  initial: string[]
  itemErrors?: Record<number, string>
}) {
  const [value, setValue] = useState(initial)
  return (
    <>
      <RolePicker
        label="Resource roles"
        options={options}
        value={value}
        onChange={setValue}
        itemErrors={itemErrors}
        testId="rr"
      />
      <output data-testid="value">{value.join(',')}</output>
    </>
  )
}

const value = () => screen.getByTestId('value').textContent

describe('role picker', () => {
  it('adds a role found by its name and removes one with its button', async () => {
    const user = userEvent.setup()
    render(<Harness initial={['rest-minimal']} />)
    await user.click(screen.getByTestId('rr-input'))
    await user.keyboard('clerk')
    const option = await screen.findByRole('option', { name: /order-clerk/ })
    await user.click(option)
    expect(value()).toBe('rest-minimal,order-clerk')
    await user.click(screen.getByRole('button', { name: 'Remove rest-minimal' }))
    expect(value()).toBe('order-clerk')
  })

  it('does not offer roles already assigned', async () => {
    const user = userEvent.setup()
    render(<Harness initial={['system-admin']} />)
    await user.click(screen.getByTestId('rr-input'))
    const names = (await screen.findAllByRole('option')).map((o) => o.textContent)
    expect(names.some((n) => n?.includes('system-admin'))).toBe(false)
    expect(names).toHaveLength(2)
  })

  it("marks the server's problem on the chip it names, and unknown codes", () => {
    render(
      <Harness initial={['rest-minimal', 'ghost']} itemErrors={{ 1: "unknown role 'ghost'" }} />
    )
    const chips = screen.getAllByTestId('rr-chip')
    expect(chips[0]!.className).not.toContain('chip--bad')
    expect(chips[1]!.className).toContain('chip--bad')
    expect(screen.getByTestId('field-error').textContent).toBe("ghost: unknown role 'ghost'")
  })
})
