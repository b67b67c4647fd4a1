/**
 * Downloads through an entity (issue 7, catalogue FL9): a caller without the
 * `rest.fileDownload.enabled` policy may still download a file that an entity row it can read
 * references. The question is asked through DataManager, as the caller, so entity read
 * permissions and row-level filters apply: a row the caller cannot see does not count.
 */
import type { Model } from '#engine/metadata/model'
import { DataError } from '#engine/data/errors'

export interface RowCounter {
  count(entity: string, filter?: unknown): Promise<number>
}

interface FileAttribute {
  entity: string
  attribute: string
}

/** Every persistent file-typed attribute of the model (memoized per model version). */
export function fileAttributes(model: Model): FileAttribute[] {
  return model.derive('files.attributes', (m) =>
    [...m.entities.values()].flatMap((e) =>
      e.attributeList
        .filter((a) => a.datatype === 'file' && a.column !== null && !a.transient)
        .map((a) => ({ entity: e.name, attribute: a.name }))
    )
  )
}

/** Whether some row the caller can read holds exactly `fileRef` in a file attribute. */
export async function referencedByReadableRow(data: RowCounter, model: Model, fileRef: string) {
  for (const { entity, attribute } of fileAttributes(model)) {
    const filter = { conditions: [{ property: attribute, operator: '=', value: fileRef }] }
    try {
      if ((await data.count(entity, filter)) > 0) return true
    } catch (error) {
      // Reading the entity (or filtering by the attribute) is forbidden: not through this one.
      if (!(error instanceof DataError)) throw error
    }
  }
  return false
}
