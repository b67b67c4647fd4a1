/*
|--------------------------------------------------------------------------
| The application's own routes (app/controllers/custom/README.md). Register them with
| `customRoutes`: protected (a bearer token is required) unless `{ public: true }` is given.
| At start the server logs every route that no URL pattern protects.
|--------------------------------------------------------------------------
*/
import app from '@adonisjs/core/services/app'
import router from '@adonisjs/core/services/router'
import { customRoutes, logOpenRoutes } from '#controllers/custom/routing'

const BookstoreController = () => import('#controllers/custom/bookstore_controller')

customRoutes('/api/bookstore', () => {
  router.get('/books/:id', [BookstoreController, 'show'])
  router.get('/summary', [BookstoreController, 'summary'])
})

customRoutes(
  '/api/bookstore',
  () => {
    router.get('/opening-hours', [BookstoreController, 'openingHours'])
  },
  { public: true }
)

app.ready(() => logOpenRoutes())
