import { useCallback, useSyncExternalStore } from 'react'

export type Theme = 'light' | 'dark'
const KEY = 'modelgate.console.theme'
const listeners = new Set<() => void>()

function initial(): Theme {
  const stored = localStorage.getItem(KEY)
  if (stored === 'light' || stored === 'dark') return stored
  return window.matchMedia?.('(prefers-color-scheme: dark)').matches ? 'dark' : 'light'
}

let theme: Theme = typeof window === 'undefined' ? 'light' : initial()

export function applyTheme(next: Theme = theme) {
  theme = next
  document.documentElement.dataset.theme = next
  for (const listener of listeners) listener()
}

/** Light or dark (the system's choice until the admin picks one; the pick is remembered). */
export function useTheme(): [Theme, () => void] {
  const current = useSyncExternalStore(
    (l) => {
      listeners.add(l)
      return () => listeners.delete(l)
    },
    () => theme,
    () => theme
  )
  const toggle = useCallback(() => {
    const next = theme === 'dark' ? 'light' : 'dark'
    localStorage.setItem(KEY, next)
    applyTheme(next)
  }, [])
  return [current, toggle]
}
