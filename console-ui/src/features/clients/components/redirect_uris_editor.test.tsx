import { afterEach, describe, expect, it } from 'vitest'
import { useState } from 'react'
import { cleanup, render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { redirectUriProblem, RedirectUrisEditor } from './redirect_uris_editor'

afterEach(cleanup)

function Harness({
  initial,
  serverErrors,
  onValue,
}: {
  initial: string[]
  serverErrors?: Record<number, string>
  onValue?: (v: string[]) => void
}) {
  const [value, setValue] = useState(initial)
  return (
    <RedirectUrisEditor
      value={value}
      onChange={(next) => {
        setValue(next)
        onValue?.(next)
      }}
      itemErrors={serverErrors}
    />
  )
}

const rows = () => screen.getAllByTestId('redirect-uri-row')

describe('redirect URI list editor', () => {
  it('checks that a URI is absolute', () => {
    expect(redirectUriProblem('https://app.example.com/cb')).toBeUndefined()
    expect(redirectUriProblem('myapp:/callback')).toBeUndefined()
    expect(redirectUriProblem('http://127.0.0.1:8080/cb')).toBeUndefined()
    expect(redirectUriProblem('/callback')).toMatch(/absolute URI/)
    expect(redirectUriProblem('app.example.com/cb')).toMatch(/absolute URI/)
    expect(redirectUriProblem('  ')).toMatch(/Enter a URI/)
  })

  it('adds a row with focus, marks a relative URI at its row once left, and removes rows', async () => {
    const user = userEvent.setup()
    let last: string[] = []
    render(<Harness initial={['https://a.example/cb']} onValue={(v) => (last = v)} />)
    await user.click(screen.getByTestId('redirect-uri-add'))
    expect(rows()).toHaveLength(2)
    const second = within(rows()[1]!).getByRole('textbox', { name: 'Redirect URI 2' })
    expect(document.activeElement).toBe(second)
    await user.type(second, '/callback')
    // No complaint while typing.
    expect(within(rows()[1]!).queryByTestId('field-error')).toBeNull()
    await user.tab()
    const error = within(rows()[1]!).getByTestId('field-error')
    expect(error.textContent).toMatch(/absolute URI/)
    expect(second.getAttribute('aria-invalid')).toBe('true')
    expect(within(rows()[0]!).queryByTestId('field-error')).toBeNull()
    expect(last).toEqual(['https://a.example/cb', '/callback'])

    await user.click(screen.getByRole('button', { name: 'Remove redirect URI 1' }))
    expect(last).toEqual(['/callback'])
    // The row that moved up keeps its problem.
    expect(within(rows()[0]!).getByTestId('field-error').textContent).toMatch(/absolute URI/)
  })

  it("shows the server's problem at the row it names", () => {
    render(
      <Harness
        initial={['https://a.example/cb', 'https://b.example/cb#frag']}
        serverErrors={{ 1: 'must not contain a fragment' }}
      />
    )
    expect(within(rows()[0]!).queryByTestId('field-error')).toBeNull()
    const error = within(rows()[1]!).getByTestId('field-error')
    expect(error.textContent).toBe('must not contain a fragment')
    expect(error.getAttribute('data-row')).toBe('1')
  })
})
