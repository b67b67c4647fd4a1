import { Link, useLocation } from 'react-router'

const tabs = [
  {
    to: '/model',
    label: 'Entities',
    active: (p: string) => p === '/model' || p.startsWith('/model/entities'),
  },
  { to: '/model/enums', label: 'Enums', active: (p: string) => p.startsWith('/model/enums') },
  {
    to: '/model/fetch-plans',
    label: 'Fetch plans',
    active: (p: string) => p.startsWith('/model/fetch-plans'),
  },
]

/** Entities / Enums / Fetch plans: the three parts of the model, as links (deep-linkable). */
export function ModelTabs() {
  const { pathname } = useLocation()
  return (
    <nav className="model-tabs" aria-label="Model sections" data-testid="model-tabs">
      {tabs.map((tab) => {
        const active = tab.active(pathname.replace(/\/$/, ''))
        return (
          <Link
            key={tab.to}
            to={tab.to}
            aria-current={active ? 'page' : undefined}
            className={active ? 'model-tabs__tab model-tabs__tab--active' : 'model-tabs__tab'}
          >
            {tab.label}
          </Link>
        )
      })}
    </nav>
  )
}
