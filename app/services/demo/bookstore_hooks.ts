/**
 * Demo entity lifecycle hooks (README "Developer guide"; app/engine/data/write/hooks.ts),
 * registered in start/hooks.ts. They run inside the write transaction of every create,
 * update and delete of the entity through DataManager.
 */
import type { EntityHooks } from '#engine/data/write/hooks'

/**
 * bookstore_Book: an ISBN may be sent with hyphens or spaces (`978-3-16-148410-0`); it is
 * stored as the 13 digits the attribute's pattern asks for. A title of blanks only is refused.
 */
export const bookHooks: EntityHooks = {
  beforeSave({ values, refuse }) {
    if (typeof values.isbn === 'string') values.isbn = values.isbn.replace(/[\s-]/g, '')
    if (typeof values.title === 'string') {
      values.title = values.title.trim()
      if (values.title === '') refuse('must not be blank', 'title')
    }
  },
}
