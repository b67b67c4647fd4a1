import type { RouteObject } from 'react-router'
import { OverviewPage } from './components/overview_page'

export const routes: RouteObject[] = [{ index: true, element: <OverviewPage /> }]
