/*
 * Admin API routes: security (registered inside the /admin/api group of start/routes/admin.ts).
 * Resource roles and row-level roles share one controller; the path tells the kind.
 */
import router from '@adonisjs/core/services/router'

const RolesController = () => import('#controllers/admin/roles_controller')

export function registerSecurityRoutes() {
  for (const path of ['/resource-roles', '/row-level-roles']) {
    router.get(path, [RolesController, 'index'])
    router.post(path, [RolesController, 'store'])
    router.get(`${path}/:code`, [RolesController, 'show'])
    router.put(`${path}/:code`, [RolesController, 'update'])
    router.delete(`${path}/:code`, [RolesController, 'destroy'])
    router.post(`${path}/:code/copy`, [RolesController, 'copy'])
  }
}
