/*
 * Admin API routes: inspect (registered inside the /admin/api group of start/routes/admin.ts).
 * Effective permissions and the row-level preview of any user or client; read-only.
 */
import router from '@adonisjs/core/services/router'

const InspectController = () => import('#controllers/admin/inspect_controller')

export function registerInspectRoutes() {
  router.get('/permissions', [InspectController, 'permissions'])
  router.get('/row-preview', [InspectController, 'preview'])
  router.post('/row-preview', [InspectController, 'previewPosted'])
}
