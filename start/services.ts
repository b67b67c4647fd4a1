/*
|--------------------------------------------------------------------------
| REST services (app/services/README.md). Only the classes listed here are served under
| /rest/services; decorators or the XML of `svc.rest.services-config` say which methods.
|--------------------------------------------------------------------------
*/
import { registerServices } from '#services/catalogue'
// Entity lifecycle hooks are registered at the same time as the services.
import '#start/hooks'
import BookstoreService from '#services/demo/bookstore_service'
import StockService from '#services/demo/stock_service'

registerServices([BookstoreService, StockService])
