/*
 * The fields of one entity, generated from the model: scalar attributes and references in a
 * grid, compositions as nested editors (child rows with their own fields, two levels deep).
 * `errors` are the server's violations keyed by path (`number`, `lines[0].quantity`).
 */
import type { ModelAttribute, ModelEntity, ModelEnum } from '../../../lib/model'
import { captionOf, isToMany } from '../../../lib/model'
import { Field } from '../../../components/ui/field'
import {
  backRefOf,
  newKey,
  toForm,
  type ChildForm,
  type FormContext,
  type FormValues,
} from '../api/form_values'
import { formAttributes, isInverse } from '../api/schema'
import { InverseField } from './inverse_field'
import { FieldInput } from './field_input'

export interface EntityFormProps {
  entity: ModelEntity
  values: FormValues
  onChange: (values: FormValues) => void
  errors: Record<string, string>
  enums: ModelEnum[]
  ctx: FormContext
  /** Path of these values in the body ('' at the top, `lines[0]` for a child). */
  prefix?: string
  /** The composition's back-reference, left out of a child's fields. */
  skip?: string
  /** A new row with a client-given (string) id. */
  isNew?: boolean
  depth?: number
  /** The edited row's id (links of inverse relations). */
  rowId?: string
}

export function hintOf(a: ModelAttribute): string {
  const parts: string[] = []
  if (a.type === 'association') parts.push(`${isToMany(a) ? 'rows' : 'a row'} of ${a.target}`)
  else if (a.type === 'enum') parts.push(`enum ${a.enum as string}`)
  else parts.push(a.type)
  if (a.type === 'string')
    parts.push(`max ${typeof a.length === 'number' ? a.length : 255} characters`)
  if (a.min !== undefined) parts.push(`min ${String(a.min)}`)
  if (a.max !== undefined) parts.push(`max ${String(a.max)}`)
  if (typeof a.pattern === 'string') parts.push(`pattern ${a.pattern}`)
  if (a.unique) parts.push('unique')
  if (a.type === 'offsetDateTime') parts.push('your local time')
  return parts.join(' · ')
}

export function EntityForm(props: EntityFormProps) {
  const { entity, values, onChange, errors, enums, ctx, prefix = '', skip, depth = 0 } = props
  const at = (name: string) => (prefix ? `${prefix}.${name}` : name)
  const set = (name: string, v: unknown) => onChange({ ...values, [name]: v })
  const attributes = formAttributes(entity, skip)
  // Inverse sides last: they are links, not inputs.
  const plain = attributes
    .filter((a) => a.type !== 'composition')
    .sort((x, y) => Number(isInverse(x)) - Number(isInverse(y)))
  const compositions = attributes.filter((a) => a.type === 'composition')
  const label = (a: ModelAttribute) => (
    <>
      {ctx.caption(entity.name, a.name)}
      {a.mandatory && (
        <span className="data-required" aria-hidden="true">
          {' '}
          *
        </span>
      )}
    </>
  )
  return (
    <>
      <div className="form-grid data-form-grid">
        {entity.idType === 'string' && (
          <Field
            label={
              <>
                Id
                <span className="data-required" aria-hidden="true">
                  {' '}
                  *
                </span>
              </>
            }
            error={errors[at('id')]}
            hint={props.isNew ? 'chosen by you, cannot change later' : undefined}
          >
            <input
              className="input mono"
              value={String(values.id ?? '')}
              readOnly={!props.isNew}
              onChange={(e) => set('id', e.target.value)}
              data-testid={`input-${at('id')}`}
            />
          </Field>
        )}
        {plain.map((a) =>
          isInverse(a) ? (
            <InverseField
              key={a.name}
              attribute={a}
              label={ctx.caption(entity.name, a.name)}
              value={values[a.name]}
              ownerId={props.rowId}
            />
          ) : (
            <Field
              key={a.name}
              label={label(a)}
              error={errors[at(a.name)]}
              hint={depth === 0 ? hintOf(a) : undefined}
              className={
                a.type === 'text' || a.type === 'json' || isToMany(a) ? 'data-wide' : undefined
              }
            >
              <FieldInput
                attribute={a}
                value={values[a.name]}
                onChange={(v) => set(a.name, v)}
                enums={enums}
                testId={`input-${at(a.name)}`}
              />
            </Field>
          )
        )}
      </div>
      {compositions.map((a) => {
        const target = ctx.byName.get(a.target ?? '')
        if (!target) return null
        return (
          <CompositionEditor
            key={a.name}
            attribute={a}
            label={ctx.caption(entity.name, a.name)}
            target={target}
            value={values[a.name]}
            onChange={(v) => set(a.name, v)}
            path={at(a.name)}
            errors={errors}
            enums={enums}
            ctx={ctx}
            depth={depth + 1}
          />
        )
      })}
    </>
  )
}

interface CompositionEditorProps {
  attribute: ModelAttribute
  label: string
  target: ModelEntity
  value: unknown
  onChange: (v: unknown) => void
  path: string
  errors: Record<string, string>
  enums: ModelEnum[]
  ctx: FormContext
  depth: number
}

/** Child rows owned by this row (created, updated and deleted with it). */
function CompositionEditor({
  attribute: a,
  label,
  target,
  value,
  onChange,
  path,
  errors,
  enums,
  ctx,
  depth,
}: CompositionEditorProps) {
  const skip = backRefOf(a)
  const blank = (): ChildForm => ({ key: newKey(), values: toForm(target, null, ctx, skip) })
  const Heading = depth > 1 ? 'h4' : 'h3'
  const own = errors[path]
  if (depth > 2) return null
  if (!isToMany(a)) {
    const child = value as ChildForm | null
    return (
      <fieldset className="data-composition" data-testid={`composition-${path}`}>
        <legend className="data-composition__title">
          <Heading className="data-composition__heading">{label}</Heading>
          <span className="muted data-small">{target.name}, saved with this row</span>
        </legend>
        {own && (
          <p className="field__error" role="alert" data-testid="field-error">
            {own}
          </p>
        )}
        {child ? (
          <>
            <EntityForm
              entity={target}
              values={child.values}
              onChange={(v) => onChange({ ...child, values: v })}
              errors={errors}
              enums={enums}
              ctx={ctx}
              prefix={path}
              skip={skip}
              depth={depth}
              isNew={!child.id}
            />
            <button type="button" className="btn btn--small" onClick={() => onChange(null)}>
              Remove {label.toLowerCase()}
            </button>
          </>
        ) : (
          <button
            type="button"
            className="btn btn--small"
            onClick={() => onChange(blank())}
            data-testid={`add-${path}`}
          >
            + Add {label.toLowerCase()}
          </button>
        )}
      </fieldset>
    )
  }
  const rows = (value as ChildForm[] | null) ?? []
  return (
    <fieldset className="data-composition" data-testid={`composition-${path}`}>
      <legend className="data-composition__title">
        <Heading className="data-composition__heading">
          {label} <span className="badge">{rows.length}</span>
        </Heading>
        <span className="muted data-small">{target.name} rows, saved with this row</span>
      </legend>
      {own && (
        <p className="field__error" role="alert" data-testid="field-error">
          {own}
        </p>
      )}
      <ol className="data-children">
        {rows.map((child, i) => (
          <li key={child.key} className="data-child" data-testid="child-row">
            <div className="data-child__head">
              <span className="muted">
                {captionOf(target)} {i + 1}
                {child.id ? '' : ' (new)'}
              </span>
              <button
                type="button"
                className="btn btn--small"
                aria-label={`Remove ${captionOf(target)} ${i + 1}`}
                onClick={() => onChange(rows.filter((r) => r.key !== child.key))}
              >
                Remove
              </button>
            </div>
            <EntityForm
              entity={target}
              values={child.values}
              onChange={(v) =>
                onChange(rows.map((r) => (r.key === child.key ? { ...r, values: v } : r)))
              }
              errors={errors}
              enums={enums}
              ctx={ctx}
              prefix={`${path}[${i}]`}
              skip={skip}
              depth={depth}
              isNew={!child.id}
            />
          </li>
        ))}
      </ol>
      <button
        type="button"
        className="btn btn--small"
        onClick={() => onChange([...rows, blank()])}
        data-testid={`add-${path}`}
      >
        + Add {captionOf(target)}
      </button>
    </fieldset>
  )
}
