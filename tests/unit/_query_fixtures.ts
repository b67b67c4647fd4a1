/**
 * The demo model and result helpers for the query unit tests (not a spec file).
 */
import { Model } from '#engine/metadata/model'
import { normalizeModel } from '#engine/metadata/normalize'
import type { QueryError, QueryResult } from '#engine/query/errors'
import { demoDocument } from '#tests/unit/_fixtures'

let demo: Model | undefined

/** database/demo/bookstore.json as a model snapshot (built once). */
export async function demoModel(): Promise<Model> {
  if (!demo) {
    const doc = await demoDocument()
    demo = new Model(
      1,
      normalizeModel({ enums: doc.enums, entities: doc.entities, fetchPlans: doc.fetchPlans ?? [] })
    )
  }
  return demo
}

export function valueOf<T>(result: QueryResult<T>): T {
  if (!result.ok) throw new Error(`expected success, got ${JSON.stringify(result.error)}`)
  return result.value
}

export function errorOf<T>(result: QueryResult<T>): QueryError {
  if (result.ok) throw new Error('expected an error, got a result')
  return result.error
}
