import { Link, useRoutePath } from './router'
import { routes, upcomingAreas } from './routes'

/** Page frame: header with the product name, side navigation, and the current page. */
export function Shell() {
  const path = useRoutePath()
  const route = routes.find((r) => r.path === path)

  return (
    <div className="shell">
      <header className="shell__header">
        <h1 className="shell__brand" data-testid="product-name">
          Modelgate Console
        </h1>
      </header>
      <nav className="shell__nav" aria-label="Main" data-testid="nav">
        <ul>
          {routes.map((r) => (
            <li key={r.path}>
              <Link to={r.path} current={r.path === path} className="nav__link">
                {r.title}
              </Link>
            </li>
          ))}
          {upcomingAreas.map((name) => (
            <li key={name}>
              <span className="nav__link nav__link--disabled" aria-disabled="true" title="Coming soon">
                {name}
              </span>
            </li>
          ))}
        </ul>
      </nav>
      <main className="shell__main">
        {route ? (
          <>
            <h2 className="page__title">{route.title}</h2>
            {route.render()}
          </>
        ) : (
          <p data-testid="not-found">
            No page at <code>{path}</code>. <Link to="/">Back to the overview</Link>.
          </p>
        )}
      </main>
    </div>
  )
}
