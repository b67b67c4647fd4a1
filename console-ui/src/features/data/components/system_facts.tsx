import type { ModelEntity } from '../../../lib/model'
import type { EntityRow } from '../api/schema'
import { formatCell } from '../api/format'

const SYSTEM: [string, string, string][] = [
  ['id', 'Id', 'string'],
  ['version', 'Version', 'int'],
  ['createdBy', 'Created by', 'string'],
  ['createdDate', 'Created', 'offsetDateTime'],
  ['lastModifiedBy', 'Last modified by', 'string'],
  ['lastModifiedDate', 'Last modified', 'offsetDateTime'],
  ['deletedBy', 'Deleted by', 'string'],
  ['deletedDate', 'Deleted', 'offsetDateTime'],
]

/** The attributes the server keeps (id, version, audit columns): shown, never edited. */
export function SystemFacts({ entity, row }: { entity: ModelEntity; row: EntityRow }) {
  const facts = SYSTEM.filter(([name]) => row[name] !== undefined && row[name] !== null)
  return (
    <aside className="panel data-form__side" aria-labelledby="row-system" data-testid="row-system">
      <h2 className="panel__title" id="row-system">
        Kept by the server
      </h2>
      <dl className="facts">
        {facts.map(([name, label, type]) => (
          <div key={name} className="data-fact">
            <dt>{label}</dt>
            <dd
              className={name === 'id' ? 'mono data-break' : undefined}
              data-testid={`fact-${name}`}
            >
              {formatCell({ name, type }, row[name], []).text}
            </dd>
          </div>
        ))}
      </dl>
      {!(entity.traits ?? []).includes('versioned') && (
        <p className="muted data-small">Not versioned: a save overwrites concurrent changes.</p>
      )}
    </aside>
  )
}
