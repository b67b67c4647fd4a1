/*
 * Admin API routes: accounts (registered inside the /admin/api group of start/routes/admin.ts).
 * Users are never deleted here: deactivation stops them.
 */
import router from '@adonisjs/core/services/router'

const UsersController = () => import('#controllers/admin/users_controller')

export function registerAccountsRoutes() {
  router.get('/users', [UsersController, 'index'])
  router.post('/users', [UsersController, 'store'])
  router.get('/users/:username', [UsersController, 'show'])
  router.patch('/users/:username', [UsersController, 'update'])
  router.post('/users/:username/deactivate', [UsersController, 'deactivate'])
  router.post('/users/:username/activate', [UsersController, 'activate'])
  router.post('/users/:username/password', [UsersController, 'password'])
  router.put('/users/:username/roles', [UsersController, 'roles'])
}
