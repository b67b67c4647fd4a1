import type { ReactNode } from 'react'
import { Dialog as HDialog, DialogPanel, DialogTitle } from '@headlessui/react'

interface DialogProps {
  open: boolean
  onClose: () => void
  title: ReactNode
  children: ReactNode
  /** Buttons at the bottom right. */
  actions?: ReactNode
  wide?: boolean
  testId?: string
}

/** A modal dialog (focus trapped, Escape closes, labelled by its title). */
export function Dialog({ open, onClose, title, children, actions, wide, testId }: DialogProps) {
  return (
    <HDialog open={open} onClose={onClose} className="dialog">
      <div className="dialog__backdrop" aria-hidden="true" />
      <div className="dialog__frame">
        <DialogPanel className={wide ? 'dialog__panel dialog__panel--wide' : 'dialog__panel'} data-testid={testId}>
          <DialogTitle className="dialog__title">{title}</DialogTitle>
          <div className="dialog__body">{children}</div>
          {actions && <div className="dialog__actions">{actions}</div>}
        </DialogPanel>
      </div>
    </HDialog>
  )
}
