/*
|--------------------------------------------------------------------------
| Entity lifecycle hooks (README "Developer guide", app/engine/data/write/hooks.ts): per entity
| name, `beforeSave` / `afterSave` / `beforeDelete` / `afterDelete` run inside the write
| transaction of every create, update and delete through DataManager (REST entities API,
| services, custom controllers). Imported by start/services.ts.
|--------------------------------------------------------------------------
*/
import { registerEntityHooks } from '#engine/data/write/hooks'
import { bookHooks } from '#services/demo/bookstore_hooks'

registerEntityHooks('bookstore_Book', bookHooks)
