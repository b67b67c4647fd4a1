/**
 * Demo service exposed by decorators (app/services/README.md): simple, date, enum, UUID,
 * fileRef, entity, entity-list and DTO parameters; text, entity, collection, structured and void
 * results. Every read goes through `this.data`, the caller's DataManager: the caller's roles
 * (row-level ones included) limit what a method sees.
 */
import vine from '@vinejs/vine'
import { RestServiceBase } from '#services/types'
import { restMethod, restService } from '#services/decorators'

const BOOK = 'bookstore_Book'

/** A structured (DTO) parameter: a VineJS schema. */
const quoteRequest = vine.object({
  bookId: vine.string().uuid(),
  quantity: vine.number().withoutDecimals().min(1).max(1000),
  coupon: vine.string().maxLength(20).optional(),
})

@restService()
export default class BookstoreService extends RestServiceBase {
  /** Simple parameter, text result: GET /rest/services/bookstoreService/greet?name=Ann */
  @restMethod({ params: [{ name: 'name', type: 'string' }] })
  greet(name: string) {
    return `Hello, ${name}!`
  }

  /** Date and int parameters, date (text) result. GET only. */
  @restMethod({
    httpMethods: ['GET'],
    params: [
      { name: 'day', type: 'date' },
      { name: 'days', type: 'int' },
    ],
  })
  addDays(day: string, days: number) {
    const date = new Date(`${day}T00:00:00Z`)
    date.setUTCDate(date.getUTCDate() + days)
    return date.toISOString().slice(0, 10)
  }

  /** The other simple datatypes, echoed as a structured (JSON) result. */
  @restMethod({
    params: [
      { name: 'flag', type: 'boolean' },
      { name: 'count', type: 'long' },
      { name: 'ratio', type: 'double' },
      { name: 'amount', type: 'decimal' },
      { name: 'at', type: 'time' },
      { name: 'when', type: 'dateTime' },
      { name: 'ref', type: 'uuid' },
      { name: 'file', type: 'fileRef' },
    ],
  })
  echo(...values: unknown[]) {
    const [flag, count, ratio, amount, at, when, ref, file] = values
    return { flag, count, ratio, amount, at, when, ref, file }
  }

  /** UUID parameter, entity result (the entities API's serialization). */
  @restMethod({ params: [{ name: 'id', type: 'uuid' }] })
  book(id: string) {
    return this.data.load(BOOK, id)
  }

  /** Enum and date parameters, collection-of-entities result: limited by the caller's rows. */
  @restMethod({
    params: [
      { name: 'genre', type: { enum: 'com.example.bookstore.Genre' } },
      { name: 'since', type: 'date' },
    ],
  })
  async booksOfGenre(genre: string, since: string) {
    const filter = {
      conditions: [
        { property: 'genre', operator: '=', value: genre },
        { property: 'publicationDate', operator: '>=', value: since },
      ],
    }
    return (await this.data.list(BOOK, { filter, sort: 'title' })).items
  }

  /** Entity parameter (entity JSON, POST), structured result. */
  @restMethod({ httpMethods: ['POST'], params: [{ name: 'book', type: { entity: BOOK } }] })
  describeBook(book: Record<string, unknown>) {
    return {
      title: book.title ?? null,
      pages: book.pageCount ?? null,
      long: Number(book.pageCount) > 400,
    }
  }

  /** Entity-list parameter, number (text) result. */
  @restMethod({ params: [{ name: 'tags', type: { entities: 'bookstore_Tag' } }] })
  countTags(tags: unknown[]) {
    return tags.length
  }

  /** DTO parameter (VineJS schema), structured result built from a read as the caller. */
  @restMethod({
    httpMethods: ['POST'],
    params: [{ name: 'request', type: { schema: quoteRequest, name: 'QuoteRequest' } }],
  })
  async quote(request: { bookId: string; quantity: number; coupon?: string }) {
    const book = await this.data.load(BOOK, request.bookId)
    const unit = Number(book.price ?? 0)
    const discount = request.coupon === 'READ10' ? 0.1 : 0
    const total = Math.round(unit * request.quantity * (1 - discount) * 100) / 100
    return { book, quantity: request.quantity, total }
  }

  /** No result: 204. */
  @restMethod({ httpMethods: ['POST'] })
  ping() {}
}
