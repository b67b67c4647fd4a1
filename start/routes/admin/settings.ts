/*
 * Admin API routes: settings (and the URL tester), translations, the schema changelog and the audit trail
 * (registered inside the /admin/api group of start/routes/admin.ts).
 */
import router from '@adonisjs/core/services/router'

const SettingsController = () => import('#controllers/admin/settings_controller')
const MessagesController = () => import('#controllers/admin/messages_controller')
const HistoryController = () => import('#controllers/admin/history_controller')
const UrlTestController = () => import('#controllers/admin/url_test_controller')

export function registerSettingsRoutes() {
  router.get('/settings', [SettingsController, 'index'])
  router.get('/settings/:name', [SettingsController, 'show'])
  router.put('/settings/:name', [SettingsController, 'update'])
  router.delete('/settings/:name', [SettingsController, 'destroy'])
  router.get('/url-test', [UrlTestController, 'show'])
  router.post('/url-test', [UrlTestController, 'test'])

  router.get('/messages', [MessagesController, 'index'])
  router.get('/messages/:locale', [MessagesController, 'show'])
  router.put('/messages/:locale', [MessagesController, 'update'])

  router.get('/changelog', [HistoryController, 'changelog'])
  router.get('/audit', [HistoryController, 'index'])
  router.get('/audit/:id', [HistoryController, 'show'])
}
