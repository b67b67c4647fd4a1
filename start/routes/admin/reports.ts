/**
 * Admin API routes: reports (app/reports/README.md "Admin API"), registered inside the
 * /admin/api group.
 */
import router from '@adonisjs/core/services/router'

const ReportsController = () => import('#controllers/admin/reports_controller')

export function registerReportsRoutes() {
  router.get('/reports', [ReportsController, 'index'])
  router.post('/reports', [ReportsController, 'store'])
  router.get('/reports/executions', [ReportsController, 'executions'])
  router.get('/reports/:id', [ReportsController, 'show'])
  router.put('/reports/:id', [ReportsController, 'update'])
  router.patch('/reports/:id', [ReportsController, 'patch'])
  router.delete('/reports/:id', [ReportsController, 'destroy'])
  router.get('/reports/:id/templates/:code/file', [ReportsController, 'downloadTemplate'])
  router.put('/reports/:id/templates/:code/file', [ReportsController, 'uploadTemplate'])
  router.post('/reports/:id/preview', [ReportsController, 'preview'])
  router.post('/reports/:id/run', [ReportsController, 'run'])
}
