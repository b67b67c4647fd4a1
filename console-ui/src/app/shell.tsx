import { useEffect, useState } from 'react'
import { NavLink, Outlet, useLocation } from 'react-router'
import { nav, navGroups } from './nav'
import { useTheme } from './theme'
import { GlobalSearch } from './global_search'
import { useDefinitionVersion } from '../lib/admin'
import { useCurrentUser } from '../lib/auth/auth_pages'
import { signOut } from '../lib/auth/session'

/** Page frame: header (search, version, theme, user), side navigation, the current page. */
export function Shell() {
  const [menuOpen, setMenuOpen] = useState(false)
  const [searchOpen, setSearchOpen] = useState(false)
  const [theme, toggleTheme] = useTheme()
  const version = useDefinitionVersion()
  const me = useCurrentUser()
  const location = useLocation()

  useEffect(() => setMenuOpen(false), [location.pathname])
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const target = e.target as HTMLElement | null
      const typing = target?.closest('input, textarea, select, [contenteditable="true"]')
      if ((e.key === 'k' && (e.ctrlKey || e.metaKey)) || (e.key === '/' && !typing)) {
        e.preventDefault()
        setSearchOpen(true)
      }
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [])

  return (
    <div className={menuOpen ? 'shell shell--menu-open' : 'shell'}>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="shell__header">
        <button
          type="button"
          className="btn btn--icon shell__menu-button"
          aria-label="Menu"
          aria-expanded={menuOpen}
          onClick={() => setMenuOpen((o) => !o)}
        >
          ☰
        </button>
        <span className="brand" data-testid="product-name">
          Modelgate <span className="brand__sub">Console</span>
        </span>
        <button
          type="button"
          className="search-button"
          onClick={() => setSearchOpen(true)}
          data-testid="search-open"
          aria-keyshortcuts="Control+K /"
        >
          <span aria-hidden="true">⌕</span> <span className="search-button__label">Search…</span>
          <kbd>Ctrl K</kbd>
        </button>
        <span className="shell__spacer" />
        {version !== null && (
          <span className="badge badge--outline" title="Definition version (changes with every admin change)" data-testid="definition-version">
            v{version}
          </span>
        )}
        <button
          type="button"
          className="btn btn--icon"
          onClick={toggleTheme}
          aria-label={theme === 'dark' ? 'Switch to the light theme' : 'Switch to the dark theme'}
          data-testid="theme-toggle"
        >
          {theme === 'dark' ? '☀' : '☾'}
        </button>
        <span className="shell__user" data-testid="current-user" title="Signed in">
          {me.data?.username}
        </span>
        <button type="button" className="btn btn--small" onClick={() => void signOut()} data-testid="sign-out">
          Sign out
        </button>
      </header>
      <nav className="shell__nav" aria-label="Main" data-testid="nav">
        {navGroups.map((group) => (
          <div key={group} className="nav__group">
            <div className="nav__group-title">{group}</div>
            <ul>
              {nav
                .filter((entry) => entry.group === group)
                .map((entry) => (
                  <li key={entry.to}>
                    <NavLink to={entry.to} end={entry.to === '/'} className="nav__link" title={entry.hint}>
                      {entry.label}
                    </NavLink>
                  </li>
                ))}
            </ul>
          </div>
        ))}
      </nav>
      <main className="shell__main" id="main" tabIndex={-1}>
        <Outlet />
      </main>
      <GlobalSearch open={searchOpen} onClose={() => setSearchOpen(false)} />
    </div>
  )
}
