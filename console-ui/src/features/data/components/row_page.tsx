import { useEffect, useMemo, useState } from 'react'
import type { FormValues } from '../api/form_values'
import { Link, useParams } from 'react-router'
import { useQuery } from '@tanstack/react-query'
import { EmptyState, Page } from '../../../components/ui/page'
import { Loading } from '../../../components/ui/loading'
import { ErrorMessage } from '../../../components/ui/error_message'
import { captionOf, useModelEntities, useModelEnums } from '../../../lib/model'
import { dataKeys } from '../api/keys'
import { fetchRow } from '../api/rest'
import { formPlan } from '../api/schema'
import { RowEditor } from './row_editor'
import './data.css'

/** /data/:entity/:id and /data/:entity/new — the generated edit form. */
export function RowPage() {
  const { entity: entityName = '', id } = useParams()
  const isNew = id === undefined
  const model = useModelEntities()
  const enums = useModelEnums()
  const byName = useMemo(() => new Map((model.data ?? []).map((e) => [e.name, e])), [model.data])
  const entity = byName.get(entityName)
  const plan = useMemo(() => (entity ? formPlan(entity, byName) : null), [entity, byName])
  const row = useQuery({
    queryKey: dataKeys.row(entityName, id ?? ''),
    queryFn: ({ signal }) => fetchRow(entityName, id!, plan, signal),
    enabled: !isNew && !!plan,
    staleTime: 0,
    refetchOnWindowFocus: false,
  })
  const back = `/data/${encodeURIComponent(entityName)}`
  const [carry, setCarry] = useState<FormValues | null>(null)
  // Edits re-applied after a conflict are used once, by the editor mounted for the fresh row.
  useEffect(() => setCarry(null), [row.dataUpdatedAt])

  if (model.isPending || enums.isPending) return <Loading />
  if (model.error) return <ErrorMessage error={model.error} />
  if (!entity)
    return (
      <Page title="Entity not found" description={<Link to="/data">Back to the entity list</Link>}>
        <EmptyState title={`There is no entity named ${entityName}`} />
      </Page>
    )
  const title = isNew
    ? `New ${captionOf(entity)}`
    : (row.data?._instanceName ?? `${captionOf(entity)} ${id}`)
  return (
    <Page
      title={title}
      description={
        <>
          <Link to="/data">Data</Link> / <Link to={back}>{entity.name}</Link>
          {!isNew && (
            <>
              {' '}
              / <span className="mono">{id}</span>
            </>
          )}
        </>
      }
      testId="data-row-page"
    >
      {!isNew && row.isPending ? (
        <Loading />
      ) : !isNew && row.error ? (
        <ErrorMessage error={row.error} testId="row-error" />
      ) : (
        <RowEditor
          key={`${entityName}/${id ?? 'new'}/${row.dataUpdatedAt}`}
          entity={entity}
          byName={byName}
          enums={enums.data ?? []}
          row={isNew ? null : (row.data ?? null)}
          carry={carry}
          reload={async (edits) => {
            setCarry(edits ?? null)
            await row.refetch()
          }}
        />
      )}
    </Page>
  )
}
