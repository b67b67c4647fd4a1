import { Link, useLocation } from 'react-router'
import { Page } from '../components/ui/page'

export function NotFoundPage() {
  const location = useLocation()
  return (
    <Page title="Page not found">
      <p data-testid="not-found">
        No console page at <code>{location.pathname}</code>. <Link to="/">Back to the overview</Link>.
      </p>
    </Page>
  )
}
