import { useSyncExternalStore, type ReactNode } from 'react'

/*
 * A deliberately tiny hash router (#/path). Hash URLs need no server-side fallback: the server
 * only has to serve /console/index.html. Swap for a real router when pages need parameters.
 */

function subscribe(onChange: () => void): () => void {
  window.addEventListener('hashchange', onChange)
  return () => window.removeEventListener('hashchange', onChange)
}

function readPath(): string {
  return normalizePath(window.location.hash.replace(/^#/, ''))
}

export function normalizePath(path: string): string {
  const trimmed = path.replace(/\/+$/, '')
  return trimmed.startsWith('/') ? trimmed : `/${trimmed}`
}

/** Current route path ("/" by default); "/" during server-side rendering. */
export function useRoutePath(): string {
  return useSyncExternalStore(subscribe, readPath, () => '/')
}

interface LinkProps {
  to: string
  children: ReactNode
  className?: string
  current?: boolean
}

export function Link({ to, children, className, current }: LinkProps) {
  return (
    <a href={`#${to}`} className={className} aria-current={current ? 'page' : undefined}>
      {children}
    </a>
  )
}
