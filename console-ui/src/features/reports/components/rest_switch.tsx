import { Switch } from '@headlessui/react'

/** The "available through the REST API" flag as a switch (label given for screen readers). */
export function RestSwitch({ checked, onChange, label, disabled, testId }: { checked: boolean; onChange: (v: boolean) => void; label: string; disabled?: boolean; testId?: string }) {
  return (
    <span className="rp-switch-wrap">
      <Switch checked={checked} onChange={onChange} disabled={disabled} className="rp-switch" aria-label={label} data-testid={testId}>
        <span className="rp-switch__knob" aria-hidden="true" />
      </Switch>
      <span className="rp-switch__text" aria-hidden="true">
        {checked ? 'On' : 'Off'}
      </span>
    </span>
  )
}
