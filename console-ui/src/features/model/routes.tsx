import type { RouteObject } from 'react-router'

/** Routes of this area (pages are loaded lazily: `lazy: () => import(...)`). */
export const routes: RouteObject[] = [
  {
    path: 'model',
    lazy: () =>
      import('./components/entity_list_page').then((m) => ({ Component: m.EntityListPage })),
  },
  {
    path: 'model/entities',
    lazy: () =>
      import('./components/entity_list_page').then((m) => ({ Component: m.EntityListPage })),
  },
  {
    path: 'model/entities/new',
    lazy: () =>
      import('./components/new_entity_page').then((m) => ({ Component: m.NewEntityPage })),
  },
  {
    path: 'model/entities/:name',
    lazy: () => import('./components/entity_page').then((m) => ({ Component: m.EntityPage })),
  },
  {
    path: 'model/enums',
    lazy: () => import('./components/enum_list_page').then((m) => ({ Component: m.EnumListPage })),
  },
  {
    path: 'model/enums/new',
    lazy: () => import('./components/enum_page').then((m) => ({ Component: m.EnumPage })),
  },
  {
    path: 'model/enums/:name',
    lazy: () => import('./components/enum_page').then((m) => ({ Component: m.EnumPage })),
  },
  {
    path: 'model/fetch-plans',
    lazy: () =>
      import('./components/fetch_plan_list_page').then((m) => ({ Component: m.FetchPlanListPage })),
  },
  {
    path: 'model/fetch-plans/new',
    lazy: () =>
      import('./components/fetch_plan_page').then((m) => ({ Component: m.FetchPlanPage })),
  },
  {
    path: 'model/fetch-plans/:entity/:name',
    lazy: () =>
      import('./components/fetch_plan_page').then((m) => ({ Component: m.FetchPlanPage })),
  },
]
