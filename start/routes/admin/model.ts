/*
 * Admin API routes: model (registered inside the /admin/api group of start/routes/admin.ts).
 * Entities with their attributes and indexes, enums and fetch plans, one element at a time.
 */
import router from '@adonisjs/core/services/router'

const EntitiesController = () => import('#controllers/admin/entities_controller')
const EnumsController = () => import('#controllers/admin/enums_controller')
const FetchPlansController = () => import('#controllers/admin/fetch_plans_controller')

export function registerModelRoutes() {
  router.get('/entities', [EntitiesController, 'index'])
  router.post('/entities', [EntitiesController, 'store'])
  router.get('/entities/:name', [EntitiesController, 'show'])
  router.put('/entities/:name', [EntitiesController, 'update'])
  router.delete('/entities/:name', [EntitiesController, 'destroy'])
  router.post('/entities/:name/attributes', [EntitiesController, 'storeAttribute'])
  router.put('/entities/:name/attributes/:attribute', [EntitiesController, 'updateAttribute'])
  router.delete('/entities/:name/attributes/:attribute', [EntitiesController, 'destroyAttribute'])
  router.put('/entities/:name/indexes', [EntitiesController, 'updateIndexes'])

  router.get('/enums', [EnumsController, 'index'])
  router.post('/enums', [EnumsController, 'store'])
  router.get('/enums/:name', [EnumsController, 'show'])
  router.put('/enums/:name', [EnumsController, 'update'])
  router.delete('/enums/:name', [EnumsController, 'destroy'])

  router.get('/fetch-plans', [FetchPlansController, 'index'])
  router.post('/fetch-plans', [FetchPlansController, 'store'])
  router.get('/fetch-plans/:entity/:name', [FetchPlansController, 'show'])
  router.put('/fetch-plans/:entity/:name', [FetchPlansController, 'update'])
  router.delete('/fetch-plans/:entity/:name', [FetchPlansController, 'destroy'])
}
