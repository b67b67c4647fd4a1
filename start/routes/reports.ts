/*
|--------------------------------------------------------------------------
| Reports API (/rest/reports/..., reference 11; README "Reports API"). Every request needs a
| token and the specific policy `reports.rest.enabled` (checked by the controller).
|--------------------------------------------------------------------------
*/
import router from '@adonisjs/core/services/router'

const ReportsController = () => import('#controllers/rest/reports_controller')

router.get('/rest/reports/report', [ReportsController, 'index'])
router.get('/rest/reports/report/:id', [ReportsController, 'show'])
router.post('/rest/reports/run/code/:code', [ReportsController, 'runByCode'])
router.post('/rest/reports/run/:id', [ReportsController, 'run'])
router.get('/rest/reports/group/:id', [ReportsController, 'group'])
router.get('/rest/reports/docs/openapi.json', [ReportsController, 'docs'])
router.get('/rest/reports/docs/openapi.yaml', [ReportsController, 'docs'])
