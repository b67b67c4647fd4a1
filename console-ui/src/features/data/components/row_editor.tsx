/*
 * Edits one row (or creates one): the generated fields, Save (PUT with only what changed and
 * the version read; POST for a new row), Delete (after confirmation), and the write errors
 * where they belong: violations at their fields, an optimistic-lock conflict with "Reload",
 * a 403 explained.
 */
import { useEffect, useMemo, useRef, useState } from 'react'
import { useBlocker, useNavigate } from 'react-router'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { toast } from 'sonner'
import { useConfirm } from '../../../components/ui/confirm'
import { captionOf, type ModelEntity, type ModelEnum } from '../../../lib/model'
import { dataKeys } from '../api/keys'
import { createRow, deleteRow, fetchRow, updateRow, useCaptions } from '../api/rest'
import { formPlan, type EntityRow } from '../api/schema'
import { explainWriteError, violationMap } from '../api/format'
import {
  changedAttributes,
  fieldPaths,
  FormValueError,
  toForm,
  writeBody,
  type FormValues,
} from '../api/form_values'
import { EntityForm } from './entity_form'
import { SystemFacts } from './system_facts'
import { ConflictNotice } from './conflict_notice'

interface RowEditorProps {
  entity: ModelEntity
  byName: Map<string, ModelEntity>
  enums: ModelEnum[]
  row: EntityRow | null
  /** Loads the row again; `carry` are edits to re-apply on top of the fresh version. */
  reload: (carry?: FormValues) => Promise<void>
  carry?: FormValues | null
}

/** Moves the focus to the input of a body path (from the error summary). */
function focusField(path: string) {
  const el = document.querySelector<HTMLElement>(`[data-testid="input-${CSS.escape(path)}"]`)
  const target = el?.matches('input, select, textarea, button')
    ? el
    : el?.querySelector<HTMLElement>('input, select, textarea')
  target?.focus()
  target?.scrollIntoView({ block: 'center' })
}

export function RowEditor({ entity, byName, enums, row, reload, carry }: RowEditorProps) {
  const caption = useCaptions()
  const ctx = useMemo(() => ({ byName, caption }), [byName, caption])
  const initial = useMemo(() => toForm(entity, row, ctx), [entity, row, ctx])
  const [values, setValues] = useState<FormValues>(() => ({ ...initial, ...(carry ?? {}) }))
  const [latest, setLatest] = useState<EntityRow | null>()
  const navigate = useNavigate()
  const client = useQueryClient()
  const confirm = useConfirm()
  const leaving = useRef(false)
  const path = `/data/${encodeURIComponent(entity.name)}`
  const dirty = JSON.stringify(values) !== JSON.stringify(initial)

  const save = useMutation({
    mutationFn: () => {
      const body = writeBody(
        entity,
        values,
        row ? { values: initial, version: row.version } : null,
        ctx
      )
      return row ? updateRow(entity.name, row.id, body) : createRow(entity.name, body)
    },
    onSuccess: async (answer) => {
      await client.invalidateQueries({ queryKey: dataKeys.entity(entity.name) })
      toast.success(
        row ? `Saved ${answer._instanceName ?? ''}` : `Created ${answer._instanceName ?? answer.id}`
      )
      if (!row) {
        leaving.current = true
        void navigate(`${path}/${encodeURIComponent(answer.id)}`, { replace: true })
      }
    },
    onError: (error) => {
      if (row && explainWriteError(error).kind === 'lock') {
        setLatest(undefined)
        fetchRow(entity.name, row.id, formPlan(entity, byName)).then(setLatest, () =>
          setLatest(null)
        )
      }
    },
  })
  const remove = useMutation({
    mutationFn: () => deleteRow(entity.name, row!.id),
    onSuccess: async () => {
      leaving.current = true
      toast.success(`Deleted ${row?._instanceName ?? row?.id}`)
      await client.invalidateQueries({ queryKey: dataKeys.entity(entity.name) })
      void navigate(path)
    },
  })

  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      dirty &&
      !leaving.current &&
      !save.isPending &&
      currentLocation.pathname !== nextLocation.pathname
  )
  useEffect(() => {
    if (blocker.state !== 'blocked') return
    void confirm({
      title: 'Leave without saving?',
      message: 'Your changes to this row are not saved.',
      confirmLabel: 'Leave',
      danger: true,
    }).then((ok) => (ok ? blocker.proceed() : blocker.reset()))
  }, [blocker, confirm])

  const error = save.error ?? remove.error
  const errors =
    save.error instanceof FormValueError
      ? { [save.error.path]: save.error.message }
      : violationMap(save.error)
  const shownPaths = new Set(fieldPaths(entity, values, ctx))
  const errorList = Object.entries(errors)
  const explained = error && !(error instanceof FormValueError) ? explainWriteError(error) : null
  const changed = row
    ? changedAttributes(entity, values, initial, ctx).filter((n) => n !== 'id')
    : []

  const submit = () => {
    if (save.isPending || (row && !dirty)) return
    save.reset()
    save.mutate()
  }

  const onDelete = async () => {
    if (!row) return
    const soft = (entity.traits ?? []).includes('softDelete')
    const ok = await confirm({
      title: `Delete ${row._instanceName ?? 'this row'}?`,
      message: soft
        ? `${captionOf(entity)} rows are soft-deleted: the row is marked deleted and disappears from every list and search.`
        : `The row is removed${entity.attributes.some((a) => a.type === 'composition') ? ' with the rows it owns (compositions)' : ''}. This cannot be undone.`,
      confirmLabel: 'Delete',
      danger: true,
    })
    if (ok) remove.mutate()
  }

  return (
    <form
      className="data-form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault()
        submit()
      }}
      onKeyDown={(e) => {
        if (e.key === 's' && (e.ctrlKey || e.metaKey)) {
          e.preventDefault()
          submit()
        }
      }}
      data-testid="row-form"
    >
      {explained?.kind === 'lock' && (
        <ConflictNotice
          entity={entity}
          changed={changed}
          values={values}
          latest={latest}
          enums={enums}
          ctx={ctx}
          onReload={(keep) =>
            void reload(
              keep ? Object.fromEntries(changed.map((name) => [name, values[name]])) : undefined
            )
          }
        />
      )}
      {explained && explained.kind !== 'lock' && (
        <div className="error" role="alert" data-testid="write-error">
          <strong>{explained.title}</strong>
          {explained.detail && <p className="error__detail">{explained.detail}</p>}
          {errorList.length > 0 && (
            <ul className="data-elsewhere" data-testid="error-list">
              {errorList.map(([p, m]) => (
                <li key={p}>
                  {shownPaths.has(p) ? (
                    <button
                      type="button"
                      className="btn btn--link mono"
                      onClick={() => focusField(p)}
                    >
                      {p}
                    </button>
                  ) : (
                    <span className="mono">{p || entity.name}</span>
                  )}
                  : {m}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
      <div className={row ? 'data-form__layout' : 'data-form__layout data-form__layout--single'}>
        <section className="panel data-form__main" aria-labelledby="row-fields">
          <h2 className="panel__title" id="row-fields">
            {captionOf(entity)}
          </h2>
          <EntityForm
            entity={entity}
            values={values}
            onChange={setValues}
            errors={errors}
            enums={enums}
            ctx={ctx}
            isNew={!row}
            rowId={row?.id}
          />
        </section>
        {row && <SystemFacts entity={entity} row={row} />}
      </div>
      <div className="data-form__bar">
        <button
          type="submit"
          className="btn btn--primary"
          disabled={save.isPending || (!!row && !dirty)}
          data-testid="row-save"
        >
          {save.isPending ? 'Saving…' : row ? 'Save' : 'Create'}
        </button>
        <button type="button" className="btn" onClick={() => void navigate(path)}>
          {dirty ? 'Cancel' : 'Back to the list'}
        </button>
        {dirty && (
          <span className="muted data-small" data-testid="unsaved">
            Unsaved changes
          </span>
        )}
        <span className="shell__spacer" />
        {row && (
          <button
            type="button"
            className="btn btn--danger"
            onClick={() => void onDelete()}
            disabled={remove.isPending}
            data-testid="row-delete"
          >
            Delete
          </button>
        )}
      </div>
    </form>
  )
}
