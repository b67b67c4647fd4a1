/*
 * One dataset of a band: a query over an entity (filter builder with the parameters and parent
 * band fields as values, sort, limit, fields), one entity or a list from a parameter, or SQL
 * (with the warning that it bypasses row-level security).
 */
import { useMemo } from 'react'
import { Field } from '../../../components/ui/field'
import { FilterBuilder } from '../../../components/filter/filter_builder'
import { emptyFilter, type Filter } from '../../../components/filter/filter'
import type { ModelEntity, ModelEnum } from '../../../lib/model'
import { FilterReferenceInput } from '../../data/components/reference_picker'
import { DATASET_TYPES, type Dataset, type DatasetType, type ReportParameter } from '../api/types'
import { propertyPaths } from '../lib/paths'
import { FieldsPicker } from './fields_picker'

interface Props {
  dataset: Dataset
  index: number
  onChange: (d: Dataset) => void
  onRemove: () => void
  params: ReportParameter[]
  /** `:Band.field` of the bands above (parent values a child query may bind). */
  parentFields: string[]
  entities: ModelEntity[]
  enums: ModelEnum[]
  /** Problems under this dataset (`entity`, `filter`, `sql`). */
  errors: Record<string, string>
}

const TYPE_LABELS: Record<DatasetType, string> = {
  query: 'Query over an entity',
  entity: 'One entity (parameter)',
  entityList: 'Entity list (parameter)',
  sql: 'SQL (read-only)',
}

export function DatasetEditor({ dataset: d, index, onChange, onRemove, params, parentFields, entities, enums, errors }: Props) {
  const byName = useMemo(() => new Map(entities.map((e) => [e.name, e])), [entities])
  const set = (patch: Partial<Dataset>) => onChange({ ...d, ...patch })
  const paramEntity = params.find((p) => p.alias === d.parameter)?.entityMetaClass
  const pathsOf = d.type === 'query' ? d.entity : paramEntity
  const paths = useMemo(() => (pathsOf ? propertyPaths(pathsOf, byName) : []), [pathsOf, byName])
  const wanted = d.type === 'entity' ? 'ENTITY' : 'ENTITY_LIST'
  const filterErrors = Object.fromEntries(Object.entries(errors).filter(([k]) => k.startsWith('filter')).map(([k, m]) => [k.replace(/^filter\.?/, ''), m]))

  return (
    <div className="rp-card rp-dataset" data-testid={`dataset-${index}`}>
      <div className="form-grid">
        <Field label="Dataset type" error={errors.type}>
          <select value={d.type} onChange={(e) => set({ type: e.target.value as DatasetType })} data-testid="dataset-type">
            {DATASET_TYPES.map((t) => (
              <option key={t} value={t}>
                {TYPE_LABELS[t]}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Name" error={errors.name} hint="Optional; names the dataset in errors.">
          <input value={d.name ?? ''} onChange={(e) => set({ name: e.target.value })} data-testid="dataset-name" />
        </Field>
        {d.type === 'query' && (
          <Field label="Entity" error={errors.entity}>
            <select value={d.entity ?? ''} onChange={(e) => set({ entity: e.target.value, filter: undefined, fields: [] })} data-testid="dataset-entity">
              <option value="">Choose an entity…</option>
              {entities.map((e) => (
                <option key={e.name}>{e.name}</option>
              ))}
            </select>
          </Field>
        )}
        {(d.type === 'entity' || d.type === 'entityList') && (
          <Field label="Parameter" error={errors.parameter} hint={`An ${wanted} parameter.`}>
            <select value={d.parameter ?? ''} onChange={(e) => set({ parameter: e.target.value })} data-testid="dataset-parameter">
              <option value="">Choose…</option>
              {params
                .filter((p) => p.type === wanted && p.alias)
                .map((p) => (
                  <option key={p.alias} value={p.alias}>
                    {p.alias} ({p.entityMetaClass})
                  </option>
                ))}
            </select>
          </Field>
        )}
        {d.type === 'query' && (
          <>
            <Field label="Sort" error={errors.sort} hint="Comma-separated; -total sorts descending.">
              <input value={d.sort ?? ''} onChange={(e) => set({ sort: e.target.value })} className="mono" data-testid="dataset-sort" />
            </Field>
            <Field label="Limit" error={errors.limit}>
              <input type="number" min={1} value={d.limit ?? ''} onChange={(e) => set({ limit: e.target.value === '' ? undefined : Number(e.target.value) })} data-testid="dataset-limit" />
            </Field>
          </>
        )}
        {index > 0 && d.type !== 'entity' && (
          <Field label="Join on field" error={errors.link} hint="Rows join the first dataset's rows on this field (default: by position).">
            <input value={d.link ?? ''} onChange={(e) => set({ link: e.target.value })} className="mono" />
          </Field>
        )}
      </div>
      {d.type === 'query' && d.entity && (
        <div className="rp-filter">
          <div className="field__label">Filter</div>
          <FilterBuilder
            entity={d.entity}
            entities={entities}
            enums={enums}
            value={(d.filter as Filter | undefined) ?? emptyFilter()}
            onChange={(filter) => set({ filter })}
            placeholders={[...params.filter((p) => p.alias).map((p) => `:${p.alias}`), ...parentFields]}
            errors={filterErrors}
            referenceInput={FilterReferenceInput}
          />
        </div>
      )}
      {d.type !== 'sql' && pathsOf && <FieldsPicker value={d.fields ?? []} options={paths} onChange={(fields) => set({ fields })} error={Object.entries(errors).filter(([k]) => k.startsWith('fields')).map(([k, m]) => (k === 'fields' ? m : `${d.fields?.[Number(/\d+/.exec(k)?.[0])] ?? k}: ${m}`)).join('; ') || undefined} testId="dataset-fields" />}
      {d.type === 'sql' && (
        <>
          <div className="notice rp-sql-warning" role="note" data-testid="sql-warning">
            <strong>SQL datasets bypass row-level security and attribute permissions.</strong> They run one read-only statement with a time limit and a row cap, only for
            users holding the <code>reports.sql.enabled</code> policy. Parameters and parent fields become bindings: <code>{'${alias}'}</code>, <code>{'${Band.field}'}</code>.
          </div>
          <Field label="SQL" error={errors.sql}>
            <textarea rows={6} value={d.sql ?? ''} onChange={(e) => set({ sql: e.target.value })} spellCheck={false} data-testid="dataset-sql" />
          </Field>
        </>
      )}
      <div className="rp-card__foot">
        <span className="rp-spacer" />
        <button type="button" className="btn btn--small" onClick={onRemove} data-testid="dataset-remove">
          Remove dataset
        </button>
      </div>
    </div>
  )
}
