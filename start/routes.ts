/*
|--------------------------------------------------------------------------
| Routes (one file per API area under start/routes/ as the API grows)
|--------------------------------------------------------------------------
*/
import router from '@adonisjs/core/services/router'
import app from '@adonisjs/core/services/app'
import type operationsConfig from '#config/operations'

const HealthController = () => import('#controllers/health_controller')

router.get('/health', [HealthController, 'show'])
router.get('/health/live', [HealthController, 'live'])
router.get('/health/ready', [HealthController, 'ready'])
// Prometheus metrics: only when a token is configured; otherwise the path is an unknown route.
if (app.config.get<typeof operationsConfig>('operations').metricsToken)
  router.get('/metrics', [() => import('#controllers/metrics_controller'), 'show'])

router.get('/', ({ response }) => response.redirect('/console/'))
// The console is a single-page app: deep links get its index.html.
router.get('/console/*', ({ response }) => response.download(app.publicPath('console/index.html')))
// Browsers ask for /favicon.ico on every origin: the console's icon, no token needed.
router.get('/favicon.ico', ({ response }) =>
  response
    .header('Cache-Control', 'public, max-age=86400')
    .download(app.publicPath('console/favicon.ico'))
)

import '#start/routes/oauth'
import '#start/routes/rest'
import '#start/routes/entities'
import '#start/routes/files'
import '#start/routes/services'
import '#start/routes/custom'
import '#start/routes/queries'
import '#start/routes/reports'
import '#start/routes/admin'
