import { useState } from 'react'
import { useConfirm } from '../../../components/ui/confirm'
import type { Setting, SettingValue } from '../api/settings'
import { useSettingChange } from '../api/use_setting_change'
import {
  SOURCE_BADGE,
  SOURCE_LABEL,
  envNameOf,
  formatValue,
  inputKind,
  readOnlyReason,
  rowsNamedBy,
  sourceText,
} from '../lib/settings_model'
import { ValueInput, type Draft } from './value_input'

interface SettingRowProps {
  setting: Setting
  version: number | null
  /** Edited elsewhere on the page (the URL pattern lists): a link instead of an editor. */
  editedAt?: { href: string; label: string }
}

const draftOf = (setting: Setting): Draft =>
  setting.type === 'boolean'
    ? setting.value === true
    : Array.isArray(setting.value)
      ? [...setting.value]
      : String(setting.value)

/** What is sent: lists without blank rows, integers as numbers when they spell one. */
function valueOf(setting: Setting, draft: Draft): SettingValue {
  if (Array.isArray(draft)) return draft.map((v) => v.trim()).filter(Boolean)
  if (setting.type === 'int' && typeof draft === 'string' && /^\s*-?\d+\s*$/.test(draft)) return Number(draft)
  return draft
}

/** One property: name, source badge, description, value; edit in place; remove a stored value. */
export function SettingRow({ setting, version, editedAt }: SettingRowProps) {
  const [draft, setDraft] = useState<Draft | null>(null)
  const change = useSettingChange(setting.name, version)
  const confirm = useConfirm()
  const readOnly = readOnlyReason(setting)
  const kind = inputKind(setting)
  const fallback = setting.fallback ?? { value: setting.default, source: 'default' as const }
  const slug = setting.name.replace(/[^a-zA-Z0-9]+/g, '-')

  const save = async () => {
    if (draft === null) return
    if (await change.store(valueOf(setting, draft))) setDraft(null)
  }
  const reset = async () => {
    const ok = await confirm({
      title: `Remove the stored value of ${setting.name}?`,
      message: (
        <p>
          Then <strong className="mono">{formatValue(fallback.value)}</strong> applies, from{' '}
          {sourceText(fallback.source, setting.name)}.
        </p>
      ),
      confirmLabel: 'Remove stored value',
      danger: true,
    })
    if (ok) await change.remove()
  }

  const rowErrors: Record<number, string> = {}
  let fieldError = change.error
  if (change.error && Array.isArray(draft)) {
    const rows = rowsNamedBy(change.error, draft)
    for (const i of rows) rowErrors[i] = change.error
    if (rows.length) fieldError = null
  }

  return (
    <li className="setting" data-testid={`setting-${setting.name}`} id={`setting-${slug}`}>
      <div className="setting__head">
        <span className="setting__name mono">{setting.name}</span>
        <span className={SOURCE_BADGE[setting.source]} data-testid="setting-source" title={sourceText(setting.source, setting.name)}>
          {SOURCE_LABEL[setting.source]}
        </span>
        <span className="badge badge--outline setting__type">{kind}</span>
      </div>
      {setting.description && <p className="setting__description">{setting.description}</p>}
      {draft === null ? (
        <div className="setting__value-line">
          <span className="setting__value mono" data-testid="setting-value">
            {formatValue(setting.value)}
          </span>
          <span className="setting__actions">
            {editedAt ? (
              <a className="btn btn--small" href={editedAt.href}>
                {editedAt.label}
              </a>
            ) : readOnly ? null : (
              <button
                type="button"
                className="btn btn--small"
                onClick={() => {
                  change.clearError()
                  setDraft(draftOf(setting))
                }}
                data-testid="setting-edit"
                aria-label={`Edit ${setting.name}`}
              >
                Edit
              </button>
            )}
            {setting.source === 'database' && !readOnly && (
              <button type="button" className="btn btn--small" onClick={() => void reset()} data-testid="setting-reset" aria-label={`Remove stored value of ${setting.name}`}>
                Remove stored value
              </button>
            )}
          </span>
        </div>
      ) : (
        <form
          className="setting__editor"
          onSubmit={(e) => {
            e.preventDefault()
            void save()
          }}
          onKeyDown={(e) => {
            if (e.key === 'Escape') setDraft(null)
          }}
        >
          <ValueInput
            kind={kind}
            label={setting.name}
            value={draft}
            onChange={setDraft}
            error={fieldError}
            rowErrors={rowErrors}
            testId="setting"
          />
          <div className="setting__editor-actions">
            <button type="submit" className="btn btn--primary btn--small" disabled={change.busy} data-testid="setting-save">
              {change.busy ? 'Saving…' : 'Save'}
            </button>
            <button type="button" className="btn btn--small" onClick={() => setDraft(null)}>
              Cancel
            </button>
            <span className="muted setting__note">Stored in the database: wins over the file and the environment.</span>
          </div>
        </form>
      )}
      <p className="setting__meta muted">
        {setting.source === 'database' ? (
          <>
            Without the stored value: <span className="mono">{formatValue(fallback.value)}</span> ({SOURCE_LABEL[fallback.source]})
          </>
        ) : setting.source !== 'default' ? (
          <>
            Default <span className="mono">{formatValue(setting.default)}</span>; set by {sourceText(setting.source, setting.name)}
          </>
        ) : (
          <>Environment: <span className="mono">{envNameOf(setting.name)}</span></>
        )}
        {readOnly && <> · {readOnly}</>}
      </p>
    </li>
  )
}
