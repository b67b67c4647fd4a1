import { useConfirm } from '../../../components/ui/confirm'
import type { Setting } from '../api/settings'
import { useSettingChange } from '../api/use_setting_change'
import { SOURCE_BADGE, SOURCE_LABEL, formatValue, rowsNamedBy, sourceText } from '../lib/settings_model'
import { ListEditor } from './list_editor'

interface PatternListProps {
  setting: Setting
  title: string
  explanation: string
  version: number | null
  /** The unsaved rows (undefined: not edited, the stored value is shown). */
  draft: string[] | undefined
  onDraft: (rows: string[] | undefined) => void
  /** Messages per row from testing the unsaved lists. */
  testErrors: Record<number, string>
  testId: string
}

const clean = (rows: string[]) => rows.map((r) => r.trim()).filter(Boolean)

/** One URL pattern list edited row by row, saved as a whole (PUT), the server's message at its row. */
export function PatternList({ setting, title, explanation, version, draft, onDraft, testErrors, testId }: PatternListProps) {
  const change = useSettingChange(setting.name, version)
  const confirm = useConfirm()
  const stored = Array.isArray(setting.value) ? setting.value : []
  const rows = draft ?? stored
  const dirty = draft !== undefined && JSON.stringify(clean(draft)) !== JSON.stringify(stored)
  const fallback = setting.fallback ?? { value: setting.default, source: 'default' as const }

  const rowErrors: Record<number, string> = { ...testErrors }
  let listError = change.error
  if (change.error) {
    const named = rowsNamedBy(change.error, rows)
    for (const i of named) rowErrors[i] = change.error
    if (named.length) listError = null
  }

  const save = async () => {
    if (await change.store(clean(rows))) onDraft(undefined)
  }
  const remove = async () => {
    const ok = await confirm({
      title: `Remove the stored ${title.toLowerCase()}?`,
      message: (
        <p>
          Then <strong className="mono">{formatValue(fallback.value)}</strong> applies, from{' '}
          {sourceText(fallback.source, setting.name)}.
        </p>
      ),
      confirmLabel: 'Remove stored value',
      danger: true,
    })
    if (ok && (await change.remove())) onDraft(undefined)
  }

  return (
    <section className="pattern-list" data-testid={testId} aria-labelledby={`${testId}-title`}>
      <div className="pattern-list__head">
        <h3 id={`${testId}-title`} className="pattern-list__title">
          {title}
        </h3>
        <span className={SOURCE_BADGE[setting.source]} data-testid="setting-source" title={sourceText(setting.source, setting.name)}>
          {SOURCE_LABEL[setting.source]}
        </span>
        {dirty && <span className="badge badge--warn" data-testid={`${testId}-unsaved`}>unsaved</span>}
      </div>
      <p className="pattern-list__name mono">{setting.name}</p>
      <p className="muted pattern-list__explanation">{explanation}</p>
      <ListEditor
        label={title.replace(/s$/, '')}
        values={rows}
        onChange={(next) => {
          change.clearError()
          onDraft(next)
        }}
        rowErrors={rowErrors}
        placeholder="/rest/entities/shop_Item/**"
        testId={`${testId}-patterns`}
        addLabel="Add pattern"
      />
      {listError && (
        <div className="field__error" role="alert" data-testid="field-error">
          {listError}
        </div>
      )}
      <div className="pattern-list__actions">
        <button type="button" className="btn btn--primary btn--small" disabled={!dirty || change.busy} onClick={() => void save()} data-testid={`${testId}-save`}>
          {change.busy ? 'Saving…' : 'Save list'}
        </button>
        <button
          type="button"
          className="btn btn--small"
          disabled={draft === undefined}
          onClick={() => {
            change.clearError()
            onDraft(undefined)
          }}
        >
          Revert
        </button>
        {setting.source === 'database' && (
          <button type="button" className="btn btn--small" onClick={() => void remove()} data-testid={`${testId}-reset`}>
            Remove stored value
          </button>
        )}
      </div>
    </section>
  )
}
