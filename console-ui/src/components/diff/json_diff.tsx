import { useId, useMemo, useState } from 'react'
import { diffJson, inline, type DiffEntry } from './json_diff_tree'
import './json_diff.css'

function Value({ value }: { value: unknown }) {
  const text = inline(value, 100)
  if (text.length < 100 || typeof value !== 'object' || value === null) return <span className="jd-value">{text}</span>
  return <pre className="jd-pre">{JSON.stringify(value, null, 2)}</pre>
}

function Entries({ entries, all }: { entries: DiffEntry[]; all: boolean }) {
  const visible = all ? entries : entries.filter((e) => e.node.kind !== 'same')
  const hidden = entries.length - visible.length
  return (
    <ul className="jd-list">
      {visible.map((entry) => (
        <Row key={entry.key} entry={entry} all={all} />
      ))}
      {hidden > 0 && (
        <li className="jd-row jd-row--more">
          … {hidden} unchanged {hidden === 1 ? 'key' : 'keys'}
        </li>
      )}
    </ul>
  )
}

function Row({ entry, all }: { entry: DiffEntry; all: boolean }) {
  const { key, node } = entry
  const label = <span className="jd-key">{key}</span>
  switch (node.kind) {
    case 'same':
      return (
        <li className="jd-row jd-row--same">
          {label}: <Value value={node.value} />
        </li>
      )
    case 'added':
    case 'removed':
      return (
        <li className={`jd-row jd-row--${node.kind}`} data-testid={`diff-${node.kind}`}>
          <span className="jd-sign" aria-hidden="true">
            {node.kind === 'added' ? '+' : '−'}
          </span>
          <span className="jd-sr">{node.kind}: </span>
          {label}: <Value value={node.value} />
        </li>
      )
    case 'changed':
      return (
        <li className="jd-row jd-row--changed" data-testid="diff-changed">
          <span className="jd-sign" aria-hidden="true">
            ~
          </span>
          <span className="jd-sr">changed: </span>
          {label}: <del className="jd-before">{inline(node.before)}</del> <span aria-hidden="true">→</span>
          <span className="jd-sr"> now </span> <ins className="jd-after">{inline(node.after)}</ins>
        </li>
      )
    case 'nested':
      return (
        <li className="jd-row jd-row--nested">
          {label} <span className="jd-brace">{node.array ? '[' : '{'}</span>
          {node.changed > 0 && (
            <span className="jd-count">
              {' '}
              {node.changed} {node.changed === 1 ? 'change' : 'changes'}
            </span>
          )}
          <Entries entries={node.entries} all={all} />
          <span className="jd-brace">{node.array ? ']' : '}'}</span>
        </li>
      )
  }
}

interface JsonDiffProps {
  before?: unknown
  after?: unknown
  /** Labels of the two sides ("stored" / "document", "before" / "after"). */
  labels?: [string, string]
  testId?: string
}

/**
 * A readable before/after of one element: only what differs (changed keys highlighted, old
 * value struck through, new one underlined), unchanged keys on demand. A new or removed
 * element is shown whole.
 */
export function JsonDiff({ before, after, labels = ['before', 'after'], testId = 'json-diff' }: JsonDiffProps) {
  const [all, setAll] = useState(false)
  const id = useId()
  const root = useMemo(() => diffJson(before, after), [before, after])
  if (root.kind === 'added' || root.kind === 'removed')
    return (
      <div className="json-diff" data-testid={testId}>
        <p className="jd-caption">{root.kind === 'added' ? `New (${labels[1]}):` : `Removed (${labels[0]}):`}</p>
        <pre className={`jd-pre jd-block--${root.kind}`} data-testid={`diff-${root.kind}`}>
          {JSON.stringify(root.value, null, 2)}
        </pre>
      </div>
    )
  if (root.kind !== 'nested')
    return root.kind === 'same' ? (
      <p className="jd-caption" data-testid={testId}>
        No difference between {labels[0]} and {labels[1]}.
      </p>
    ) : (
      <div className="json-diff" data-testid={testId}>
        <ul className="jd-list">
          <Row entry={{ key: 'value', node: root }} all={all} />
        </ul>
      </div>
    )
  return (
    <div className="json-diff" data-testid={testId}>
      <div className="jd-toolbar">
        <span className="jd-legend">
          <del className="jd-before">{labels[0]}</del> <span aria-hidden="true">→</span>{' '}
          <ins className="jd-after">{labels[1]}</ins>
        </span>
        <label className="check" htmlFor={id}>
          <input id={id} type="checkbox" checked={all} onChange={(e) => setAll(e.target.checked)} />
          Show unchanged keys
        </label>
      </div>
      <Entries entries={root.entries} all={all} />
    </div>
  )
}
