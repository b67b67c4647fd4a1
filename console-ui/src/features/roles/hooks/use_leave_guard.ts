import { useCallback, useEffect, useRef } from 'react'
import { useBlocker } from 'react-router'
import { useConfirm } from '../../../components/ui/confirm'

/**
 * Asks before leaving an editor with unsaved changes: in-app navigation (a confirmation
 * dialog) and closing or reloading the tab (the browser's own prompt). Returns `allowLeave`,
 * for a navigation the editor makes itself (after saving).
 */
export function useLeaveGuard(dirty: boolean) {
  const confirm = useConfirm()
  const state = useRef({ dirty, allowed: false })
  state.current.dirty = dirty
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      state.current.dirty && !state.current.allowed && currentLocation.pathname !== nextLocation.pathname
  )
  useEffect(() => {
    if (blocker.state !== 'blocked') return
    void confirm({
      title: 'Leave without saving?',
      message: 'Your changes are not saved. They will be lost.',
      confirmLabel: 'Leave',
      danger: true,
    }).then((ok) => (ok ? blocker.proceed() : blocker.reset()))
  }, [blocker, confirm])
  useEffect(() => {
    if (!dirty) return
    const onBeforeUnload = (e: BeforeUnloadEvent) => e.preventDefault()
    window.addEventListener('beforeunload', onBeforeUnload)
    return () => window.removeEventListener('beforeunload', onBeforeUnload)
  }, [dirty])
  return useCallback(() => {
    state.current.allowed = true
  }, [])
}
