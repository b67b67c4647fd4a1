import type { HttpContext } from '@adonisjs/core/http'
import { withDataManager } from '#controllers/rest/data_access'
import { routeParam } from '#controllers/rest/route_params'
import { DataError } from '#engine/data/errors'

/**
 * Demo custom controller (app/controllers/custom/README.md), routes in start/routes/custom.ts
 * under /api/bookstore. It chooses its own statuses, headers and bodies; data goes through the
 * caller's DataManager (403 without read permission, denied attributes left out, row-level
 * roles applied).
 */
export default class BookstoreController {
  /** GET /api/bookstore/books/:id: the book as the caller may see it, or 404 in our own words. */
  show(ctx: HttpContext) {
    return withDataManager(ctx, async (data) => {
      try {
        const book = await data.load('bookstore_Book', routeParam(ctx, 'id'))
        return ctx.response.header('Cache-Control', 'no-store').json(book)
      } catch (error) {
        // 403 and the other data errors keep their upstream body (withDataManager).
        if (!(error instanceof DataError) || error.status !== 404) throw error
        return ctx.response.status(404).json({ message: 'No such book' })
      }
    })
  }

  /** GET /api/bookstore/summary: how many books the caller can see, as plain text. */
  summary(ctx: HttpContext) {
    return withDataManager(ctx, async (data) => {
      const books = await data.count('bookstore_Book')
      return ctx.response.header('Content-Type', 'text/plain; charset=utf-8').send(`${books} books`)
    })
  }

  /** GET /api/bookstore/opening-hours: public (registered with `{ public: true }`), no data. */
  openingHours({ response }: HttpContext) {
    return response.json({ weekdays: '09:00-18:00', saturday: '10:00-14:00' })
  }
}
