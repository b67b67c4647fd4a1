import { useMemo, useState } from 'react'
import { useSearchParams } from 'react-router'
import { useQueryClient } from '@tanstack/react-query'
import { toast } from 'sonner'
import { EmptyState, Page } from '../../../components/ui/page'
import { ErrorMessage } from '../../../components/ui/error_message'
import { Loading } from '../../../components/ui/loading'
import { ApiError } from '../../../lib/api'
import { errorText, problemsOf } from '../../../lib/admin'
import { useModelEnums } from '../../../lib/model'
import { saveMessages, useLocaleMessages, useMessagesOverview } from '../api/messages'
import { buildRows, changesOf, countChanges, filterRows, keyOfProblem, type Edits, type KindFilter } from '../lib/grid_model'
import { AddLocaleDialog } from './add_locale_dialog'
import { TranslationGrid } from './translation_grid'
import './translations.css'

/** Keys x locales: every translatable key of the model, edited inline, saved in one batch per locale. */
export function TranslationsPage() {
  const overview = useMessagesOverview()
  const enums = useModelEnums()
  const queryClient = useQueryClient()
  const [params, setParams] = useSearchParams()
  const query = params.get('q') ?? ''
  const onlyMissing = params.get('missing') === '1'
  const [kind, setKind] = useState<KindFilter>('all')
  const [edits, setEdits] = useState<Edits>({})
  const [errors, setErrors] = useState<Record<string, Record<string, string>>>({})
  const [saving, setSaving] = useState(false)
  const [adding, setAdding] = useState(false)
  const setParam = (name: string, value: string | null) =>
    setParams(
      (p) => {
        if (value) p.set(name, value)
        else p.delete(name)
        return p
      },
      { replace: true }
    )

  // Columns: the available locales, then locales that store texts without being available.
  const localeNames = useMemo(() => {
    if (!overview.data) return []
    const extra = Object.keys(overview.data.stored).filter((l) => !overview.data.locales.includes(l))
    return [...overview.data.locales, ...extra.sort()]
  }, [overview.data])
  const columns = useLocaleMessages(localeNames)
  const locales = useMemo(() => columns.data ?? [], [columns.data])
  const loaded = columns.data !== null
  const enumNames = useMemo(() => new Set((enums.data ?? []).map((e) => e.name)), [enums.data])
  const allRows = useMemo(() => (loaded ? buildRows(locales, enumNames) : []), [loaded, locales, enumNames])
  const rowsByKey = useMemo(() => new Map(allRows.map((r) => [r.key, r])), [allRows])
  const rows = useMemo(
    () => filterRows(allRows, { query, onlyMissing, kind, locales: localeNames }),
    [allRows, query, onlyMissing, kind, localeNames]
  )
  const changes = changesOf(edits, rowsByKey)
  const changeCount = countChanges(changes)

  const onEdit = (locale: string, key: string, text: string) => {
    setEdits((e) => ({ ...e, [locale]: { ...e[locale], [key]: text } }))
    setErrors((e) => {
      if (!e[locale]?.[key]) return e
      const next = { ...e[locale] }
      delete next[key]
      return { ...e, [locale]: next }
    })
  }

  async function save() {
    setSaving(true)
    let version = Math.min(...locales.map((l) => l.version ?? Infinity))
    const failed: Record<string, Record<string, string>> = {}
    const saved: string[] = []
    for (const [locale, texts] of Object.entries(changes)) {
      try {
        const result = await saveMessages(locale, texts, Number.isFinite(version) ? version : null)
        version = result.definitionVersion
        saved.push(locale)
      } catch (e) {
        const problems = problemsOf(e)
        if (e instanceof ApiError && e.status === 422 && problems.length) {
          failed[locale] = {}
          for (const p of problems) {
            const key = keyOfProblem(p.path)
            if (key && rowsByKey.has(key)) failed[locale][key] = p.message
            else toast.error(`${locale}: ${p.message}`)
          }
        } else {
          toast.error(
            e instanceof ApiError && e.status === 412
              ? 'Someone else changed the definition meanwhile. Reload to see their change, then save again.'
              : `${locale}: ${errorText(e)}`
          )
        }
      }
    }
    setErrors(failed)
    setEdits((e) => Object.fromEntries(Object.entries(e).filter(([l]) => !saved.includes(l))))
    if (saved.length) {
      toast.success(`Translations saved (${saved.join(', ')})`, { description: 'Shown at once by /rest/messages' })
      await queryClient.invalidateQueries({ queryKey: ['admin'] })
    }
    if (Object.keys(failed).length) toast.error('Some texts were refused; see the marked cells. Nothing of those locales was saved.')
    setSaving(false)
  }

  const error = overview.error ?? columns.error ?? enums.error
  return (
    <Page
      title="Translations"
      description="Captions of entities, attributes and enums per locale, as /rest/messages serves them. An empty cell shows in italics what is served instead: a model caption, the language's text, or a text derived from the name — the last counts as missing (dashed border)."
      actions={
        <button type="button" className="btn" onClick={() => setAdding(true)} disabled={!overview.data} data-testid="add-locale">
          Add locale
        </button>
      }
      testId="translations-page"
    >
      {error ? (
        <ErrorMessage error={error} />
      ) : !overview.data || !loaded || enums.isPending ? (
        <Loading />
      ) : (
        <>
          <div className="toolbar tr-toolbar">
            <input
              type="search"
              className="input"
              placeholder="Search keys and texts"
              aria-label="Search keys and texts"
              value={query}
              onChange={(e) => setParam('q', e.target.value || null)}
              data-testid="translations-search"
            />
            <select className="input tr-kind" aria-label="Kind of key" value={kind} onChange={(e) => setKind(e.target.value as KindFilter)}>
              <option value="all">Entities, attributes and enums</option>
              <option value="entities">Entities and attributes</option>
              <option value="enums">Enums and values</option>
            </select>
            <label className="check">
              <input type="checkbox" checked={onlyMissing} onChange={(e) => setParam('missing', e.target.checked ? '1' : null)} data-testid="only-missing" />
              Only missing
            </label>
            <span className="muted" data-testid="translations-count">
              {rows.length === allRows.length ? `${allRows.length} keys` : `${rows.length} of ${allRows.length} keys`}
            </span>
          </div>
          <div className={changeCount ? 'tr-savebar tr-savebar--dirty' : 'tr-savebar'} aria-live="polite">
            <span data-testid="unsaved-count">
              {changeCount ? `${changeCount} unsaved ${changeCount === 1 ? 'change' : 'changes'} (${Object.keys(changes).join(', ')})` : 'No unsaved changes'}
            </span>
            <button type="button" className="btn btn--primary btn--small" disabled={!changeCount || saving} onClick={() => void save()} data-testid="translations-save">
              {saving ? 'Saving…' : 'Save'}
            </button>
            <button
              type="button"
              className="btn btn--small"
              disabled={!changeCount || saving}
              onClick={() => {
                setEdits({})
                setErrors({})
              }}
            >
              Discard
            </button>
          </div>
          {rows.length === 0 ? (
            <EmptyState title={onlyMissing ? 'Nothing is missing' : 'No key matches'}>
              {onlyMissing ? 'Every key shown has a text in every locale.' : 'Try another word, or clear the search.'}
            </EmptyState>
          ) : (
            <TranslationGrid rows={rows} locales={locales} edits={edits} onEdit={onEdit} errors={errors} />
          )}
        </>
      )}
      {overview.data && (
        <AddLocaleDialog open={adding} onClose={() => setAdding(false)} locales={overview.data.locales} version={overview.data.version} />
      )}
    </Page>
  )
}
