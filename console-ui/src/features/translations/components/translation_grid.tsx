import { Fragment, useRef, type CSSProperties } from 'react'
import { useVirtualizer } from '@tanstack/react-virtual'
import type { LocaleMessages } from '../api/messages'
import { isMissing, type Edits, type GridRow, type KeyKind } from '../lib/grid_model'

interface TranslationGridProps {
  rows: GridRow[]
  locales: LocaleMessages[]
  edits: Edits
  onEdit: (locale: string, key: string, text: string) => void
  /** The server's messages per locale and key (422 of the last save). */
  errors: Record<string, Record<string, string>>
}

const KIND_LABEL: Record<KeyKind, string> = {
  entity: 'entity',
  attribute: 'attribute',
  enum: 'enum',
  value: 'enum value',
}

/** A key with line-break opportunities after its dots and underscores. */
function breakable(key: string) {
  return key.split(/(?<=[._])/).map((part, i) => (
    <Fragment key={i}>
      {i > 0 && <wbr />}
      {part}
    </Fragment>
  ))
}

/** Rows are virtualized: only the visible ones (plus a few) are in the DOM. */
export function TranslationGrid({ rows, locales, edits, onEdit, errors }: TranslationGridProps) {
  const scroller = useRef<HTMLDivElement>(null)
  const virtual = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => 48,
    overscan: 8,
    initialRect: { width: 1200, height: 600 },
  })
  const items = virtual.getVirtualItems()
  const top = items[0]?.start ?? 0
  const bottom = virtual.getTotalSize() - (items[items.length - 1]?.end ?? 0)
  const span = locales.length + 1

  return (
    <div className="table-wrap tr-scroll" ref={scroller} data-testid="translation-grid" tabIndex={-1}>
      <table
        className="table tr-table"
        aria-rowcount={rows.length + 1}
        style={{ '--tr-locales': locales.length } as CSSProperties}
      >
        <thead>
          <tr>
            <th scope="col" className="tr-key">
              Key
            </th>
            {locales.map((l) => (
              <th scope="col" key={l.locale} data-testid={`locale-column-${l.locale}`}>
                <span className="mono tr-locale">{l.locale}</span>{' '}
                {!l.available && <span className="badge badge--warn">not available</span>}{' '}
                <span className="muted tr-missing-count">
                  {l.messages.filter((m) => isMissing(m)).length} missing
                </span>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {top > 0 && (
            <tr aria-hidden="true" className="tr-spacer">
              <td colSpan={span} style={{ height: top }} />
            </tr>
          )}
          {items.map((item) => {
            const row = rows[item.index]
            if (!row) return null
            return (
              <tr
                key={row.key}
                data-index={item.index}
                ref={virtual.measureElement}
                aria-rowindex={item.index + 2}
                data-testid="translation-row"
                data-key={row.key}
              >
                <th scope="row" className={`tr-key tr-key--${row.kind}`}>
                  <span className="mono tr-key__name">{breakable(row.key)}</span>
                  <span className="tr-key__kind">{KIND_LABEL[row.kind]}</span>
                </th>
                {locales.map((l) => {
                  const entry = row.cells[l.locale]
                  const edited = edits[l.locale]?.[row.key]
                  const error = errors[l.locale]?.[row.key]
                  const value = edited ?? entry?.stored ?? ''
                  const missing = edited === undefined && isMissing(entry)
                  const changed = edited !== undefined && (edited.trim() === '' ? null : edited) !== (entry?.stored ?? null)
                  const cls = ['tr-cell', missing ? 'tr-cell--missing' : '', changed ? 'tr-cell--edited' : '', error ? 'tr-cell--invalid' : '']
                  return (
                    <td key={l.locale} className={cls.join(' ').trim()} data-testid={`cell-${l.locale}`} data-missing={missing || undefined}>
                      <input
                        className="input tr-cell__input"
                        value={value}
                        placeholder={entry?.default ?? ''}
                        aria-label={`${row.key} in ${l.locale}`}
                        aria-invalid={error ? true : undefined}
                        title={entry?.stored === null && entry?.default ? `Shown without a text: ${entry.default} (${entry.defaultSource === 'name' ? 'from the name' : entry.defaultSource === 'language' ? "from the language's text" : 'from the model caption'})` : undefined}
                        onChange={(e) => onEdit(l.locale, row.key, e.target.value)}
                        onKeyDown={(e) => {
                          if (e.key === 'Escape' && edited !== undefined) onEdit(l.locale, row.key, entry?.stored ?? '')
                        }}
                      />
                      {error && (
                        <div className="field__error" role="alert" data-testid="field-error">
                          {error}
                        </div>
                      )}
                    </td>
                  )
                })}
              </tr>
            )
          })}
          {bottom > 0 && (
            <tr aria-hidden="true" className="tr-spacer">
              <td colSpan={span} style={{ height: bottom }} />
            </tr>
          )}
        </tbody>
      </table>
    </div>
  )
}
