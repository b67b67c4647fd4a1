import { Link, useNavigate, useParams, useSearchParams } from 'react-router'
import { adminChange, problemsOf } from '../../../lib/admin'
import { captionOf, isRelation, useModelEntities, useModelEnums } from '../../../lib/model'
import { usePlannedChange } from '../../../components/plan/use_planned_change'
import { useConfirm } from '../../../components/ui/confirm'
import { ErrorMessage } from '../../../components/ui/error_message'
import { Loading } from '../../../components/ui/loading'
import { Page } from '../../../components/ui/page'
import { entityPath, useEntityEditor, useLocales, useRowCount } from '../api/model_api'
import { CARDINALITY_INFO } from '../lib/attribute_types'
import { EntityAttributesPanel } from './entity_attributes_panel'
import { EntityGeneralPanel } from './entity_general_panel'
import { IndexesPanel } from './indexes_panel'
import { StaleNotice } from './stale_notice'
import './model.css'

/** /model/entities/:name — the entity editor. `?attribute=` highlights one attribute. */
export function EntityPage() {
  const { name = '' } = useParams()
  const [search] = useSearchParams()
  const navigate = useNavigate()
  const confirm = useConfirm()
  const query = useEntityEditor(name)
  const entities = useModelEntities()
  const enums = useModelEnums()
  const locales = useLocales()
  const rows = useRowCount(name, !!name)
  const removal = usePlannedChange({
    title: `Delete entity ${name}`,
    success: `Entity ${name} deleted`,
    onApplied: () => void navigate('/model'),
  })

  if (query.isPending) return <Loading />
  if (query.error)
    return (
      <Page title={name} description={<Link to="/model">← All entities</Link>}>
        <ErrorMessage error={query.error} testId="entity-error" />
      </Page>
    )
  const { data: entity, version } = query.data
  const reload = () => void query.refetch()
  const all = entities.data ?? []
  const incoming = all.flatMap((e) =>
    e.attributes
      .filter((a) => isRelation(a) && a.target === entity.name)
      .map((a) => ({ entity: e.name, attribute: a }))
  )
  const context = { entityName: entity.name, entities: all, enums: enums.data ?? [], locales }

  const destroy = async () => {
    const ok = await confirm({
      title: `Delete ${entity.name}?`,
      message: (
        <p>
          The entity, its table <code>{entity.table}</code> with every row, and its fetch plans are
          removed. The next step shows the plan and the rows at risk.
        </p>
      ),
      confirmLabel: 'Show the plan',
      danger: true,
    })
    if (ok)
      void removal.start((options) =>
        adminChange('DELETE', entityPath(entity.name), undefined, {
          ...options,
          ifMatch: version ?? undefined,
        })
      )
  }

  return (
    <Page
      title={entity.name}
      description={
        <>
          <Link to="/model">Data model</Link> ›{' '}
          {captionOf(entity) !== entity.name ? captionOf(entity) : 'Entity'}
          {entity.description ? ` — ${entity.description}` : ''}
          <span className="entity-facts" data-testid="entity-facts">
            <span className="mono">{entity.table}</span>
            <span>
              {rows.data === undefined
                ? '… rows'
                : `${rows.data.toLocaleString()} row${rows.data === 1 ? '' : 's'}`}
            </span>
            {(entity.traits ?? []).map((t) => (
              <span key={t} className="badge badge--accent">
                {t}
              </span>
            ))}
            <span className="badge badge--outline">id: {entity.idType ?? 'uuid'}</span>
          </span>
        </>
      }
      actions={
        <>
          <Link className="btn" to={`/model/fetch-plans?entity=${encodeURIComponent(entity.name)}`}>
            Fetch plans
          </Link>
          <button
            type="button"
            className="btn btn--quiet-danger"
            onClick={() => void destroy()}
            data-testid="delete-entity"
          >
            Delete entity
          </button>
        </>
      }
      testId="entity-page"
    >
      <StaleNotice error={removal.error} onReload={reload} />
      {problemsOf(removal.error).length > 0 && (
        <div className="error" role="alert" data-testid="delete-problems">
          <strong>{entity.name} cannot be deleted yet:</strong>
          <ul>
            {problemsOf(removal.error).map((p, i) => (
              <li key={i}>{p.message}</li>
            ))}
          </ul>
        </div>
      )}
      <div className="entity-layout">
        <div className="entity-layout__main">
          <EntityAttributesPanel
            entity={entity}
            version={version}
            context={context}
            highlight={search.get('attribute')}
            onReload={reload}
          />
          <IndexesPanel key={entity.name} entity={entity} version={version} onReload={reload} />
        </div>
        <div className="entity-layout__side">
          <EntityGeneralPanel
            key={entity.name}
            entity={entity}
            version={version}
            locales={locales}
            entities={all}
            enums={enums.data ?? []}
            onReload={reload}
          />
          <section className="panel" aria-labelledby="incoming-title" data-testid="incoming-panel">
            <h2 className="panel__title" id="incoming-title">
              Referenced by
            </h2>
            {incoming.length === 0 ? (
              <p className="muted">No other entity points here.</p>
            ) : (
              <ul className="link-list">
                {incoming.map(({ entity: from, attribute }) => (
                  <li key={`${from}.${attribute.name}`}>
                    <Link
                      to={`/model/entities/${encodeURIComponent(from)}?attribute=${encodeURIComponent(attribute.name)}`}
                    >
                      {from}.{attribute.name}
                    </Link>{' '}
                    <span className="muted small">
                      {CARDINALITY_INFO[attribute.cardinality ?? '']?.label.toLowerCase()}
                    </span>
                  </li>
                ))}
              </ul>
            )}
          </section>
        </div>
      </div>
      {removal.dialog}
    </Page>
  )
}
