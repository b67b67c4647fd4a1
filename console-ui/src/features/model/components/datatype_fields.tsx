import type { ReactNode } from 'react'
import { Link } from 'react-router'
import { Field } from '../../../components/ui/field'
import type { ModelAttribute } from '../../../lib/model'
import { isNumeric, isWhole, typeHint } from '../lib/attribute_types'
import type { AttributeContext } from './attribute_form'

const numberOrUndefined = (text: string) => (text.trim() === '' ? undefined : Number(text))
const text = (v: unknown) => (v === undefined || v === null ? '' : String(v))

function Check({
  label,
  hint,
  checked,
  onChange,
  testId,
}: {
  label: string
  hint?: ReactNode
  checked: boolean
  onChange: (v: boolean) => void
  testId: string
}) {
  return (
    <label className="check check--block" title={typeof hint === 'string' ? hint : undefined}>
      <input
        type="checkbox"
        checked={checked}
        onChange={(e) => onChange(e.target.checked)}
        data-testid={testId}
      />
      <span>
        {label}
        {hint && <span className="check__hint">{hint}</span>}
      </span>
    </label>
  )
}

interface DatatypeFieldsProps {
  value: ModelAttribute
  onChange: (next: ModelAttribute) => void
  errors: Record<string, string>
  context: AttributeContext
}

/** What a plain attribute of `value.type` takes: length, precision, range, pattern, enum, rules. */
export function DatatypeFields({ value, onChange, errors, context }: DatatypeFieldsProps) {
  const set = (patch: Partial<ModelAttribute>) => onChange({ ...value, ...patch })
  const setNumber = (key: string) => (e: { target: { value: string } }) =>
    set({ [key]: numberOrUndefined(e.target.value) })
  const type = value.type
  return (
    <>
      <div className="form-grid">
        {type === 'string' && (
          <Field
            label="Maximum length"
            error={errors.length}
            hint="1 to 10000; 255 when empty. Narrowing cuts longer values (asks first)."
          >
            <input
              type="number"
              min={1}
              max={10000}
              placeholder="255"
              value={text(value.length)}
              onChange={setNumber('length')}
              data-testid="attribute-length"
            />
          </Field>
        )}
        {type === 'decimal' && (
          <>
            <Field
              label="Precision"
              error={errors.precision}
              hint="Total digits, 1 to 38 (19 when empty)"
            >
              <input
                type="number"
                min={1}
                max={38}
                placeholder="19"
                value={text(value.precision)}
                onChange={setNumber('precision')}
                data-testid="attribute-precision"
              />
            </Field>
            <Field
              label="Scale"
              error={errors.scale}
              hint="Digits after the point, 0 to the precision (2 when empty)"
            >
              <input
                type="number"
                min={0}
                max={38}
                placeholder="2"
                value={text(value.scale)}
                onChange={setNumber('scale')}
                data-testid="attribute-scale"
              />
            </Field>
          </>
        )}
        {isNumeric(type) && (
          <>
            <Field label="Minimum" error={errors.min} hint="Smallest accepted value (optional)">
              <input
                type="number"
                step={isWhole(type) ? 1 : 'any'}
                value={text(value.min)}
                onChange={setNumber('min')}
                data-testid="attribute-min"
              />
            </Field>
            <Field label="Maximum" error={errors.max} hint="Largest accepted value (optional)">
              <input
                type="number"
                step={isWhole(type) ? 1 : 'any'}
                value={text(value.max)}
                onChange={setNumber('max')}
                data-testid="attribute-max"
              />
            </Field>
          </>
        )}
        {(type === 'string' || type === 'text') && (
          <Field
            label="Pattern"
            error={errors.pattern}
            hint="A regular expression every value must match (optional), e.g. ^[A-Z]{3}$"
          >
            <input
              className="mono"
              value={text(value.pattern)}
              onChange={(e) => set({ pattern: e.target.value || undefined })}
              spellCheck={false}
              data-testid="attribute-pattern"
            />
          </Field>
        )}
        {type === 'enum' && (
          <Field
            label="Enum"
            error={errors.enum}
            hint={<Link to="/model/enums/new">Create a new enum</Link>}
          >
            <select
              value={text(value.enum)}
              onChange={(e) => set({ enum: e.target.value || undefined })}
              data-testid="attribute-enum"
            >
              <option value="">Choose an enum…</option>
              {context.enums.map((en) => (
                <option key={en.name} value={en.name}>
                  {en.name} ({en.values.length} values)
                </option>
              ))}
            </select>
          </Field>
        )}
      </div>
      {['date', 'time', 'dateTime', 'offsetDateTime', 'boolean', 'uuid', 'file', 'json'].includes(
        type
      ) && (
        <p className="muted small" data-testid="no-type-keys">
          {typeHint(type)}. This type has no length, range or pattern: only the rules below apply.
        </p>
      )}
      <div className="checks" role="group" aria-label="Rules">
        <Check
          label="Mandatory"
          hint="Every row needs a value (NOT NULL)"
          checked={!!value.mandatory}
          onChange={(v) => set({ mandatory: v })}
          testId="attribute-mandatory"
        />
        <Check
          label="Unique"
          hint="No two rows share a value (a unique index)"
          checked={!!value.unique}
          onChange={(v) => set({ unique: v })}
          testId="attribute-unique"
        />
        <Check
          label="Read-only"
          hint="Clients cannot write it through the REST API"
          checked={!!value.readOnly}
          onChange={(v) => set({ readOnly: v })}
          testId="attribute-readonly"
        />
        <Check
          label="Transient"
          hint="No column: not stored"
          checked={!!value.transient}
          onChange={(v) => set({ transient: v })}
          testId="attribute-transient"
        />
      </div>
      {(errors.mandatory || errors.unique || errors.transient || errors.readOnly) && (
        <div className="field__error" role="alert" data-testid="field-error">
          {[errors.mandatory, errors.unique, errors.transient, errors.readOnly]
            .filter(Boolean)
            .join('; ')}
        </div>
      )}
    </>
  )
}
