/*
 * Admin API routes: named queries (README "Admin API"), registered inside the /admin/api group
 * of start/routes/admin.ts.
 */
import router from '@adonisjs/core/services/router'

const QueriesController = () => import('#controllers/admin/queries_controller')

export function registerQueriesRoutes() {
  router.get('/queries', [QueriesController, 'index'])
  router.post('/queries', [QueriesController, 'store'])
  router.get('/queries/:entity/:name', [QueriesController, 'show'])
  router.put('/queries/:entity/:name', [QueriesController, 'update'])
  router.delete('/queries/:entity/:name', [QueriesController, 'destroy'])
}
