/*
 * One input per datatype for the generated forms. Receives id / aria-* from <Field>.
 * Constraints are hints only: the server validates and its messages appear at the field.
 */
import { useState } from 'react'
import { toast } from 'sonner'
import type { ModelAttribute, ModelEnum } from '../../../lib/model'
import { captionOf, isToMany } from '../../../lib/model'
import { errorText } from '../../../lib/admin'
import { downloadFile, fileNameOf, uploadFile } from '../api/rest'
import { ReferencePicker, type RefValue } from './reference_picker'

export interface FieldInputProps {
  'attribute': ModelAttribute
  'value': unknown
  'onChange': (value: unknown) => void
  'enums': ModelEnum[]
  'id'?: string
  'aria-invalid'?: boolean
  'aria-describedby'?: string
  'aria-label'?: string
  'testId'?: string
}

const text = (v: unknown) => (v === null || v === undefined ? '' : String(v))

export function FieldInput(props: FieldInputProps) {
  const { attribute: a, value, onChange, enums, testId } = props
  const aria = {
    'id': props.id,
    'aria-invalid': props['aria-invalid'],
    'aria-describedby': props['aria-describedby'],
    'aria-label': props['aria-label'],
    'aria-required': a.mandatory || undefined,
    'data-testid': testId,
  }
  const input = (type: string, extra: Record<string, unknown> = {}) => (
    <input
      className="input"
      type={type}
      value={text(value)}
      onChange={(e) => onChange(e.target.value)}
      {...aria}
      {...extra}
    />
  )
  if (a.type === 'association') {
    if (isToMany(a)) return <ManyReferences {...props} />
    return (
      <ReferencePicker
        target={a.target ?? ''}
        value={(value as RefValue | null) ?? null}
        onChange={onChange}
        id={props.id}
        aria-label={props['aria-label']}
        aria-invalid={props['aria-invalid']}
        aria-describedby={props['aria-describedby']}
        testId={testId}
      />
    )
  }
  switch (a.type) {
    case 'text':
      return (
        <textarea
          className="input data-textarea"
          value={text(value)}
          onChange={(e) => onChange(e.target.value)}
          {...aria}
        />
      )
    case 'json':
      return (
        <textarea
          className="input data-textarea mono"
          value={text(value)}
          onChange={(e) => onChange(e.target.value)}
          spellCheck={false}
          {...aria}
        />
      )
    case 'int':
    case 'long':
      return input('number', { step: 1, min: a.min, max: a.max })
    case 'double':
      return input('number', { step: 'any', min: a.min, max: a.max })
    case 'decimal':
      return input('text', { inputMode: 'decimal' })
    case 'date':
      return input('date')
    case 'time':
      return input('time', { step: 1 })
    case 'dateTime':
    case 'offsetDateTime':
      return input('datetime-local', { step: 1 })
    case 'uuid':
      return input('text', {
        className: 'input mono',
        placeholder: '00000000-0000-0000-0000-000000000000',
      })
    case 'boolean':
      return a.mandatory ? (
        <input
          type="checkbox"
          className="data-checkbox"
          checked={value === true}
          onChange={(e) => onChange(e.target.checked)}
          {...aria}
        />
      ) : (
        <select
          className="input"
          value={value === null || value === undefined ? '' : String(value)}
          onChange={(e) => onChange(e.target.value === '' ? null : e.target.value === 'true')}
          {...aria}
        >
          <option value="">—</option>
          <option value="true">Yes</option>
          <option value="false">No</option>
        </select>
      )
    case 'enum': {
      const def = enums.find((e) => e.name === a.enum)
      return (
        <select
          className="input"
          value={text(value)}
          onChange={(e) => onChange(e.target.value)}
          {...aria}
        >
          <option value="">—</option>
          {def?.values.map((v) => (
            <option key={v.name} value={v.name}>
              {captionOf(v)}
            </option>
          ))}
          {value && def && !def.values.some((v) => v.name === value) ? (
            <option value={text(value)}>{text(value)}</option>
          ) : null}
        </select>
      )
    }
    case 'file':
      return <FileInput {...props} />
    default:
      return input('text')
  }
}

/** A to-many association: the chosen rows as chips, a picker to add one. */
function ManyReferences({ attribute: a, value, onChange, testId, ...rest }: FieldInputProps) {
  const list = (value as RefValue[] | null) ?? []
  return (
    <div className="data-many" data-testid={testId}>
      <ul className="data-chips">
        {list.map((r) => (
          <li key={r.id} className="data-chip">
            {r._instanceName ?? r.id}
            <button
              type="button"
              className="btn btn--icon btn--small"
              aria-label={`Remove ${r._instanceName ?? r.id}`}
              onClick={() => onChange(list.filter((x) => x.id !== r.id))}
            >
              ×
            </button>
          </li>
        ))}
      </ul>
      <ReferencePicker
        target={a.target ?? ''}
        value={null}
        onChange={(r) => r && !list.some((x) => x.id === r.id) && onChange([...list, r])}
        id={rest.id}
        aria-label={rest['aria-label'] ?? `Add to ${a.name}`}
        aria-describedby={rest['aria-describedby']}
      />
    </div>
  )
}

/** A file attribute: upload to /rest/files (the fileRef becomes the value), download, remove. */
function FileInput({ value, onChange, testId, ...rest }: FieldInputProps) {
  const [busy, setBusy] = useState(false)
  const ref = typeof value === 'string' && value ? value : ''
  return (
    <div className="data-file" data-testid={testId}>
      {ref ? (
        <button
          type="button"
          className="btn btn--link data-file__name"
          onClick={() =>
            downloadFile(ref).catch((e: unknown) => toast.error(`Download failed: ${errorText(e)}`))
          }
          title={ref}
          data-testid="file-download"
        >
          ⤓ {fileNameOf(ref)}
        </button>
      ) : (
        <span className="muted">No file</span>
      )}
      <input
        type="file"
        className="data-file__input"
        id={rest.id}
        aria-describedby={rest['aria-describedby']}
        aria-label={rest['aria-label']}
        disabled={busy}
        onChange={async (e) => {
          const file = e.target.files?.[0]
          if (!file) return
          setBusy(true)
          try {
            const up = await uploadFile(file)
            onChange(up.fileRef)
            toast.success(`Uploaded ${up.name} (${up.size} bytes); save to keep it`)
          } catch (error) {
            toast.error(`Upload failed: ${errorText(error)}`)
          } finally {
            setBusy(false)
            e.target.value = ''
          }
        }}
        data-testid="file-upload"
      />
      {ref && (
        <button type="button" className="btn btn--small" onClick={() => onChange('')}>
          Remove
        </button>
      )}
    </div>
  )
}
