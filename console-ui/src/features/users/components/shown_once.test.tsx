import { afterEach, describe, expect, it, vi } from 'vitest'
import { cleanup, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { ShownOnce } from './shown_once'

afterEach(cleanup)

describe('shown-once secret panel', () => {
  it('shows the value in full with a warning that it cannot be shown again', () => {
    render(
      <ShownOnce
        title="Password of alice"
        label="Generated password"
        value="k3Zp9w_Qe7LmT2xYb8Rn-4sV"
        testId="pw"
      />
    )
    expect(screen.getByRole('heading', { level: 2 }).textContent).toContain('Password of alice')
    const input = screen.getByRole('textbox', { name: 'Generated password' }) as HTMLInputElement
    expect(input.value).toBe('k3Zp9w_Qe7LmT2xYb8Rn-4sV')
    expect(input.readOnly).toBe(true)
    expect(screen.getByTestId('pw-warning').textContent).toMatch(/Shown only this once/)
    expect(screen.getByTestId('pw-warning').textContent).toMatch(/cannot|nobody can show it again/)
  })

  it('copies the value to the clipboard and says so', async () => {
    const user = userEvent.setup()
    const writeText = vi.spyOn(navigator.clipboard, 'writeText').mockResolvedValue(undefined)
    render(<ShownOnce title="Secret" label="Client secret" value="s3cret-value" testId="sec" />)
    await user.click(screen.getByTestId('sec-copy'))
    expect(writeText).toHaveBeenCalledWith('s3cret-value')
    expect(screen.getByTestId('sec-copy').textContent).toBe('Copied ✓')
  })

  it('selects the value when the clipboard is refused', async () => {
    const user = userEvent.setup()
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new Error('denied'))
    render(<ShownOnce title="Secret" label="Client secret" value="s3cret-value" testId="sec" />)
    await user.click(screen.getByTestId('sec-copy'))
    const input = screen.getByTestId('sec-value') as HTMLInputElement
    expect(input.selectionStart).toBe(0)
    expect(input.selectionEnd).toBe('s3cret-value'.length)
  })

  it('can be hidden once stored', async () => {
    const user = userEvent.setup()
    const done = vi.fn()
    render(<ShownOnce title="Secret" label="Client secret" value="v" testId="sec" onDone={done} />)
    await user.click(screen.getByTestId('sec-done'))
    expect(done).toHaveBeenCalled()
  })
})
