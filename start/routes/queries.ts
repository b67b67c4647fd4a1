/*
|--------------------------------------------------------------------------
| Queries API (/rest/queries/..., reference 2.8; README "Queries API"): named queries of the
| application definition plus the built-in `all`. `/{q}/count` is registered before `/{q}`.
|--------------------------------------------------------------------------
*/
import router from '@adonisjs/core/services/router'

const QueriesController = () => import('#controllers/rest/queries_controller')

router.get('/rest/queries/:entity/:query/count', [QueriesController, 'count'])
router.post('/rest/queries/:entity/:query/count', [QueriesController, 'count'])
router.get('/rest/queries/:entity/:query', [QueriesController, 'execute'])
router.post('/rest/queries/:entity/:query', [QueriesController, 'execute'])
router.get('/rest/queries/:entity', [QueriesController, 'index'])
