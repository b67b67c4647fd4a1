/**
 * The REST documents: the general one (every /rest route, generic placeholders) and the
 * detailed one (the general one plus what the caller may read of the current model).
 *
 * Extension points: a new generic API area is one entry in GENERAL_AREAS; what an area adds
 * to the detailed document for the current model and caller (a path per registered service
 * method or named query) is one function in DETAILED_SECTIONS.
 */
import type { Model } from '#engine/main'
import { newDocument, type OpenApiDocument } from './builder.js'
import { documentation, entities, files, messages, metadata, userSession } from './general.js'
import { queries, services } from './general_more.js'
import { addEntities, type EntityViewer } from './entities.js'
import { addQueries, addServices, type Extensions } from './extensions.js'

/** The general document's areas, in order (each adds its tag's paths). */
export const GENERAL_AREAS: {
  tag: string
  description: string
  add: (d: OpenApiDocument) => void
}[] = [
  { tag: 'Entities', description: 'Entity CRUD and search', add: entities },
  { tag: 'Files', description: 'Upload and download', add: files },
  { tag: 'Metadata', description: 'The model', add: metadata },
  { tag: 'Messages', description: 'Localized captions', add: messages },
  { tag: 'Services', description: 'Registered service methods', add: services },
  { tag: 'Queries', description: 'Named queries', add: queries },
  { tag: 'User Session', description: 'The caller and its session', add: userSession },
  { tag: 'Documentation', description: 'These descriptions', add: documentation },
]

/**
 * One contribution to the detailed document (after the general areas): what the caller may see
 * of the model, of the registered services and of the stored named queries (`ext`).
 */
export type DetailedSection = (
  doc: OpenApiDocument,
  model: Model,
  viewer: EntityViewer,
  ext: Extensions
) => void

export const DETAILED_SECTIONS: DetailedSection[] = [addEntities, addServices, addQueries]

/** OperationIds stay unique whatever names services and queries use (`a-b` and `a_b`). */
function uniqueOperationIds(doc: OpenApiDocument) {
  const seen = new Set<string>()
  for (const item of Object.values(doc.paths)) {
    for (const operation of Object.values(item)) {
      const id = String(operation.operationId)
      let unique = id
      for (let n = 2; seen.has(unique); n++) unique = `${id}_${n}`
      operation.operationId = unique
      seen.add(unique)
    }
  }
}

function general(title: string, description: string): OpenApiDocument {
  const doc = newDocument(title, '1.0', description)
  for (const area of GENERAL_AREAS) {
    doc.tags.push({ name: area.tag, description: area.description })
    area.add(doc)
  }
  return doc
}

/** The general description (the same for every caller and model version). */
export function buildGeneral(): OpenApiDocument {
  return general(
    'Modelgate REST API',
    'The generic REST API (Jmix 2 compatible): entities, files, metadata, messages, user session'
  )
}

/** The detailed description for `model` as the caller (`viewer`) may see it. */
export function buildDetailed(
  model: Model,
  viewer: EntityViewer,
  ext: Extensions = { services: [], queries: [] }
): OpenApiDocument {
  const doc = general(
    'Modelgate project REST API',
    `The REST API with the entities of model version ${model.version} the caller may read, the registered services and the named queries`
  )
  for (const section of DETAILED_SECTIONS) section(doc, model, viewer, ext)
  uniqueOperationIds(doc)
  return doc
}
