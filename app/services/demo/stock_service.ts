/**
 * Demo service exposed by XML (app/services/demo/services.xml, named by
 * `svc.rest.services-config` in config/application.properties): no decorators; the XML lists
 * every exposed method and its parameters.
 */
import { RestServiceBase } from '#services/types'

export default class StockService extends RestServiceBase {
  /** Stock items at or below `threshold` (default: their reorder level), as the caller sees them. */
  async lowStock(threshold: number | null) {
    const { items } = await this.data.list('bookstore_StockItem', { sort: 'binCode' })
    return items.filter((item) =>
      threshold === null
        ? Number(item.quantity) <= Number(item.reorderLevel)
        : Number(item.quantity) <= threshold
    )
  }

  /** How many stock items the caller can see (a number: text/plain). */
  async count() {
    return this.data.count('bookstore_StockItem')
  }

  /** Exposed by XML only: XML declares this method, the class has no decorator on it. */
  label(code: unknown, note: unknown) {
    return note === null ? `bin ${String(code)}` : `bin ${String(code)} (${String(note)})`
  }
}
