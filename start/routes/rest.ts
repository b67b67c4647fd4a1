/*
|--------------------------------------------------------------------------
| Generic REST API routes (/rest/...). Protected by the resource-server middleware
| (start/kernel.ts): handlers find the caller in ctx.subject.
|--------------------------------------------------------------------------
*/
import router from '@adonisjs/core/services/router'

const UserInfoController = () => import('#controllers/rest/user_info_controller')

router.get('/rest/userInfo', [UserInfoController, 'show'])

// Reference 8.6: the caller's granted permissions (app/security).
const PermissionsController = () => import('#controllers/rest/permissions_controller')
router.get('/rest/permissions', [PermissionsController, 'show'])

// Reference 2.13: what optional REST features this server offers.
router.get('/rest/capabilities', () => ({ inlineFetchPlans: true }))

// Metadata API (reference 8.1-8.4): entities, fetch plans (`views`: the deprecated alias the
// old npm client uses, which also sends a trailing slash; the router ignores it), enums,
// datatypes.
const MetadataController = () => import('#controllers/rest/metadata_controller')

router.get('/rest/metadata/entities', [MetadataController, 'entities'])
router.get('/rest/metadata/entities/:entity', [MetadataController, 'entity'])
for (const plans of ['fetchPlans', 'views']) {
  router.get(`/rest/metadata/entities/:entity/${plans}`, [MetadataController, 'fetchPlans'])
  router.get(`/rest/metadata/entities/:entity/${plans}/:plan`, [MetadataController, 'fetchPlan'])
}
router.get('/rest/metadata/enums', [MetadataController, 'enums'])
router.get('/rest/metadata/enums/:fqn', [MetadataController, 'enum'])
router.get('/rest/metadata/datatypes', [MetadataController, 'datatypes'])

// Messages API (spec 4.7, reference 8.5), product version and user session (reference 2.12):
// app/i18n. Enum class names contain dots: one path segment each.
const MessagesController = () => import('#controllers/rest/messages_controller')
const UserSessionController = () => import('#controllers/rest/user_session_controller')

router.get('/rest/messages/entities', [MessagesController, 'entities'])
router.get('/rest/messages/entities/:entityName', [MessagesController, 'entity'])
router.get('/rest/messages/enums', [MessagesController, 'enums'])
router.get('/rest/messages/enums/:enumClassName', [MessagesController, 'enum'])
router.get('/rest/version', [UserSessionController, 'version'])
router.put('/rest/user-session/locale', [UserSessionController, 'setLocale'])

// API descriptions (spec 4.1, app/openapi): the format is the suffix.
const DocsController = () => import('#controllers/rest/docs_controller')
router.get('/rest/docs/openapi.json', [DocsController, 'generalJson'])
router.get('/rest/docs/openapi.yaml', [DocsController, 'generalYaml'])
router.get('/rest/docs/openapiDetailed.json', [DocsController, 'detailedJson'])
router.get('/rest/docs/openapiDetailed.yaml', [DocsController, 'detailedYaml'])
