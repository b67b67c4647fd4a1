/*
|--------------------------------------------------------------------------
| Entities API (/rest/entities/..., reference 2.1-2.7). The literal `search` and `search/count`
| segments are registered before `:id`, so they win (an entity whose id is `search` cannot be
| read by id, as upstream). GET routes answer HEAD too.
|--------------------------------------------------------------------------
*/
import router from '@adonisjs/core/services/router'

const EntitiesController = () => import('#controllers/rest/entities_controller')

router.get('/rest/entities/:entity/search/count', [EntitiesController, 'countByQuery'])
router.post('/rest/entities/:entity/search/count', [EntitiesController, 'countByBody'])
router.get('/rest/entities/:entity/search', [EntitiesController, 'searchByQuery'])
router.post('/rest/entities/:entity/search', [EntitiesController, 'searchByBody'])
router.get('/rest/entities/:entity', [EntitiesController, 'index'])
router.get('/rest/entities/:entity/:id', [EntitiesController, 'show'])
// OPTIONS answers 200 with `Allow`, as Spring MVC does for every mapping (CORS pre-flights end
// in the CORS middleware before this).
for (const path of ['search/count', 'search', '', ':id']) {
  const pattern = `/rest/entities/:entity${path ? `/${path}` : ''}`
  router.route(pattern, ['OPTIONS'], [EntitiesController, 'options'])
}

// Writes (reference 2.5-2.7): create (object or array), update, bulk update, delete, bulk
// delete (app/engine/data/write).
const EntityWritesController = () => import('#controllers/rest/entity_writes_controller')

router.post('/rest/entities/:entity', [EntityWritesController, 'create'])
router.put('/rest/entities/:entity', [EntityWritesController, 'updateMany'])
router.put('/rest/entities/:entity/:id', [EntityWritesController, 'update'])
router.delete('/rest/entities/:entity', [EntityWritesController, 'destroyMany'])
router.delete('/rest/entities/:entity/:id', [EntityWritesController, 'destroy'])
