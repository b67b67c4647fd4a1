/*
|--------------------------------------------------------------------------
| Files API (/rest/files, spec 4.5, reference 7; app/files). GET answers HEAD too.
|--------------------------------------------------------------------------
*/
import router from '@adonisjs/core/services/router'
import { FILES_ROUTE } from '#files/body_middleware'

const FilesController = () => import('#controllers/rest/files_controller')

router.post(FILES_ROUTE, [FilesController, 'upload'])
router.get(FILES_ROUTE, [FilesController, 'download'])
