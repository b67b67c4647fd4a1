/*
|--------------------------------------------------------------------------
| Generic REST API routes (/rest/...). Protected by the resource-server middleware
| (start/kernel.ts): handlers find the caller in ctx.subject.
|--------------------------------------------------------------------------
*/
import router from '@adonisjs/core/services/router'

const UserInfoController = () => import('#controllers/rest/user_info_controller')

router.get('/rest/userInfo', [UserInfoController, 'show'])

// Reference 2.13: what optional REST features this server offers.
router.get('/rest/capabilities', () => ({ inlineFetchPlans: true }))
