/*
|--------------------------------------------------------------------------
| Services API (/rest/services, spec 4.3, reference 6): the classes of start/services.ts and
| the services XML of `svc.rest.services-config` (app/services/README.md).
|--------------------------------------------------------------------------
*/
import router from '@adonisjs/core/services/router'
import '#start/services'

const ServicesController = () => import('#controllers/rest/services_controller')

router.get('/rest/services', [ServicesController, 'index'])
router.get('/rest/services/:service', [ServicesController, 'show'])
router.get('/rest/services/:service/:method', [ServicesController, 'invoke'])
router.post('/rest/services/:service/:method', [ServicesController, 'invoke'])
