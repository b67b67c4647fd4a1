/*
|--------------------------------------------------------------------------
| Admin API (/admin/api/...): the definition as a whole and part by part, history, effective
| permissions. Guarded by the `admin` middleware (admin.api policy); README "Admin API".
| One routes file per area under start/routes/admin/.
|--------------------------------------------------------------------------
*/
import router from '@adonisjs/core/services/router'
import { middleware } from '#start/kernel'
import { registerModelRoutes } from '#start/routes/admin/model'
import { registerSecurityRoutes } from '#start/routes/admin/security'
import { registerAccountsRoutes } from '#start/routes/admin/accounts'
import { registerClientsRoutes } from '#start/routes/admin/clients'
import { registerSettingsRoutes } from '#start/routes/admin/settings'
import { registerInspectRoutes } from '#start/routes/admin/inspect'
import { registerQueriesRoutes } from '#start/routes/admin/queries'
import { registerReportsRoutes } from '#start/routes/admin/reports'

const DefinitionController = () => import('#controllers/admin/definition_controller')
const OpenApiController = () => import('#controllers/admin/openapi_controller')

router
  .group(() => {
    router.get('/definition', [DefinitionController, 'show'])
    router.post('/definition/plan', [DefinitionController, 'plan'])
    router.post('/definition/apply', [DefinitionController, 'apply'])
    // This API's own description (app/openapi/admin.ts lists every route).
    router.get('/openapi.json', [OpenApiController, 'json'])
    router.get('/openapi.yaml', [OpenApiController, 'yaml'])
    registerModelRoutes()
    registerSecurityRoutes()
    registerAccountsRoutes()
    registerClientsRoutes()
    registerSettingsRoutes()
    registerInspectRoutes()
    registerQueriesRoutes()
    registerReportsRoutes()
  })
  .prefix('/admin/api')
  .use(middleware.admin())
