import { createContext, useCallback, useContext, useRef, useState, type ReactNode } from 'react'
import { Dialog } from './dialog'

export interface ConfirmRequest {
  title: string
  message: ReactNode
  /** Label of the confirming button ("Delete"). */
  confirmLabel?: string
  danger?: boolean
}

type Confirm = (request: ConfirmRequest) => Promise<boolean>
const ConfirmContext = createContext<Confirm>(() => Promise.resolve(window.confirm('Are you sure?')))

/** `await confirm({...})` resolves true when the admin confirms a destructive action. */
export const useConfirm = () => useContext(ConfirmContext)

export function ConfirmProvider({ children }: { children: ReactNode }) {
  const [request, setRequest] = useState<ConfirmRequest | null>(null)
  const resolver = useRef<(value: boolean) => void>(undefined)
  const confirm = useCallback<Confirm>(
    (next) =>
      new Promise<boolean>((resolve) => {
        resolver.current = resolve
        setRequest(next)
      }),
    []
  )
  const close = (value: boolean) => {
    resolver.current?.(value)
    resolver.current = undefined
    setRequest(null)
  }
  return (
    <ConfirmContext.Provider value={confirm}>
      {children}
      <Dialog
        open={request !== null}
        onClose={() => close(false)}
        title={request?.title ?? ''}
        testId="confirm-dialog"
        actions={
          <>
            <button type="button" className="btn" onClick={() => close(false)}>
              Cancel
            </button>
            <button
              type="button"
              className={request?.danger ? 'btn btn--danger' : 'btn btn--primary'}
              onClick={() => close(true)}
              data-testid="confirm-ok"
            >
              {request?.confirmLabel ?? 'Confirm'}
            </button>
          </>
        }
      >
        {request?.message}
      </Dialog>
    </ConfirmContext.Provider>
  )
}
