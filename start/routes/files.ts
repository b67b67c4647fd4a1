/*
|--------------------------------------------------------------------------
| Files API (/rest/files, spec 4.5, reference 7; app/files). GET answers HEAD too.
|--------------------------------------------------------------------------
*/
import router from '@adonisjs/core/services/router'
import server from '@adonisjs/core/services/server'
// The kernel's server middleware first (the resource server authenticates before ours runs).
import '#start/kernel'
import { FILES_ROUTE } from '#files/body_middleware'

const FilesController = () => import('#controllers/rest/files_controller')

router.post(FILES_ROUTE, [FilesController, 'upload'])
router.get(FILES_ROUTE, [FilesController, 'download'])

// Raw uploads must reach the controller unread: this middleware hides their body from the body
// parser (app/files/body_middleware.ts). A server middleware, so it runs before the router's
// (the body parser), after the kernel's. It only acts on POST /rest/files.
server.use([() => import('#files/body_middleware')])
