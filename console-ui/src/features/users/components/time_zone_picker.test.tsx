import { afterEach, describe, expect, it, vi } from 'vitest'
import { cleanup, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { matchZones, offsetOf, TimeZonePicker, timeZones } from './time_zone_picker'

afterEach(cleanup)

describe('time zone picker', () => {
  it('lists the IANA zones of Intl, UTC first, and finds them by words', () => {
    const zones = timeZones()
    expect(zones[0]).toBe('UTC')
    expect(zones).toContain('Europe/Berlin')
    expect(matchZones(zones, 'new york')).toContain('America/New_York')
    expect(matchZones(zones, 'berlin')).toEqual(['Europe/Berlin'])
    expect(offsetOf('UTC')).toBe('UTC+00:00')
    expect(offsetOf('Asia/Kolkata')).toBe('UTC+05:30')
  })

  it('selects a zone typed in part, and clears it', async () => {
    const user = userEvent.setup()
    const onChange = vi.fn()
    const { rerender } = render(<TimeZonePicker value={null} onChange={onChange} />)
    await user.type(screen.getByRole('combobox', { name: 'Time zone' }), 'berl')
    await user.click(await screen.findByRole('option', { name: /Europe\/Berlin/ }))
    expect(onChange).toHaveBeenLastCalledWith('Europe/Berlin')
    rerender(<TimeZonePicker value="Europe/Berlin" onChange={onChange} />)
    await user.click(screen.getByRole('button', { name: 'Clear the time zone' }))
    expect(onChange).toHaveBeenLastCalledWith(null)
  })
})
