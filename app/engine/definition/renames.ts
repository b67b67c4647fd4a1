/**
 * `renamedFrom` seen from the stored model: stored items the document does not name still use the
 * OLD names of renamed entities and attributes (relation targets, mappedBy, fetch plan properties,
 * instance-name paths). Without following them, renaming something a stored entity or plan uses
 * would fail validation with "unknown entity/attribute" and force the whole model into the
 * document. Pure.
 */
import type {
  AttributeDefinition,
  EntityDefinition,
  FetchPlanDefinition,
  FetchPlanProperty,
  InlineFetchPlan,
} from '../metadata/types.js'

export interface Renames {
  /** old entity name -> new entity name */
  entities: ReadonlyMap<string, string>
  /** NEW entity name -> old attribute name -> new attribute name */
  attributes: ReadonlyMap<string, ReadonlyMap<string, string>>
}

export function collectRenames(
  docEntities: EntityDefinition[],
  origin: ReadonlyMap<string, EntityDefinition>
): Renames {
  const entities = new Map<string, string>()
  const attributes = new Map<string, Map<string, string>>()
  for (const e of docEntities) {
    const old = origin.get(e.name)
    if (old && old.name !== e.name) entities.set(old.name, e.name)
    const renamed = e.attributes.filter((a) => a.renamedFrom && a.renamedFrom !== a.name)
    if (renamed.length)
      attributes.set(e.name, new Map(renamed.map((a) => [a.renamedFrom!, a.name])))
  }
  return { entities, attributes }
}

export function followAttribute(r: Renames, a: AttributeDefinition): AttributeDefinition {
  if (!a.target) return a
  const target = r.entities.get(a.target) ?? a.target
  const mappedBy = a.mappedBy && (r.attributes.get(target)?.get(a.mappedBy) ?? a.mappedBy)
  return target === a.target && mappedBy === a.mappedBy
    ? a
    : { ...a, target, ...(mappedBy ? { mappedBy } : {}) }
}

/** Resolves names level by level against the merged entities (whose targets already follow). */
class Walker {
  #entities: Map<string, EntityDefinition>
  constructor(
    private r: Renames,
    entities: EntityDefinition[]
  ) {
    this.#entities = new Map(entities.map((e) => [e.name, e]))
  }

  name(entity: string, attribute: string): string {
    return this.r.attributes.get(entity)?.get(attribute) ?? attribute
  }

  target(entity: string, attribute: string): string | undefined {
    return this.#entities.get(entity)?.attributes.find((a) => a.name === attribute)?.target
  }

  path(entity: string | undefined, path: string): string {
    const out: string[] = []
    for (const segment of path.split('.')) {
      const name = entity ? this.name(entity, segment) : segment
      out.push(name)
      entity = entity && this.target(entity, name)
    }
    return out.join('.')
  }

  properties(entity: string, properties: FetchPlanProperty[]): FetchPlanProperty[] {
    return properties.map((p) => {
      if (typeof p === 'string') return this.name(entity, p)
      const name = this.name(entity, p.name)
      if (p.fetchPlan === undefined || typeof p.fetchPlan === 'string') return { ...p, name }
      const target = this.target(entity, name)
      const inline: InlineFetchPlan = target
        ? { ...p.fetchPlan, properties: this.properties(target, p.fetchPlan.properties) }
        : p.fetchPlan
      return { ...p, name, fetchPlan: inline }
    })
  }
}

export function followStored(r: Renames, entities: EntityDefinition[]) {
  const walker = new Walker(r, entities)
  const none = r.entities.size === 0 && r.attributes.size === 0
  return {
    plan: (p: FetchPlanDefinition): FetchPlanDefinition =>
      none ? p : { ...p, properties: walker.properties(p.entity, p.properties) },
    entity: (e: EntityDefinition): EntityDefinition => {
      if (none || !e.instanceName) return e
      const pattern = e.instanceName
      const instanceName = pattern.includes('{')
        ? pattern.replace(/\{([^}]*)\}/g, (_m, path: string) => `{${walker.path(e.name, path)}}`)
        : walker.path(e.name, pattern)
      return instanceName === pattern ? e : { ...e, instanceName }
    },
  }
}
