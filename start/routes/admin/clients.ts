/*
 * Admin API routes: OAuth clients (registered inside the /admin/api group of
 * start/routes/admin.ts). README "Admin API".
 */
import router from '@adonisjs/core/services/router'

const ClientsController = () => import('#controllers/admin/clients_controller')

export function registerClientsRoutes() {
  router.get('/clients', [ClientsController, 'index'])
  router.post('/clients', [ClientsController, 'store'])
  router.get('/clients/:clientId', [ClientsController, 'show'])
  router.put('/clients/:clientId', [ClientsController, 'update'])
  router.delete('/clients/:clientId', [ClientsController, 'destroy'])
  router.post('/clients/:clientId/secret', [ClientsController, 'rotateSecret'])
  router.post('/clients/:clientId/revoke-tokens', [ClientsController, 'revokeTokens'])
}
