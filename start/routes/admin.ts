/*
|--------------------------------------------------------------------------
| Admin API (/admin/api/...): the definition as a whole and part by part, history, effective
| permissions. Guarded by the `admin` middleware (admin.api policy); README "Admin API".
|--------------------------------------------------------------------------
*/
import router from '@adonisjs/core/services/router'
import { middleware } from '#start/kernel'

const DefinitionController = () => import('#controllers/admin/definition_controller')

export const adminRoutes = router
  .group(() => {
    router.get('/definition', [DefinitionController, 'show'])
    router.post('/definition/plan', [DefinitionController, 'plan'])
    router.post('/definition/apply', [DefinitionController, 'apply'])
  })
  .prefix('/admin/api')
  .use(middleware.admin())
