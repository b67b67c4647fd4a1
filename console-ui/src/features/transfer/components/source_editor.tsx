import { useId, useState, type DragEvent } from 'react'
import { toast } from 'sonner'
import type { DocFormat } from '../api/definition'

interface SourceEditorProps {
  name: string
  text: string
  format: DocFormat | null
  onChange: (next: { name: string; text: string }) => void
}

const MAX_BYTES = 20 * 1024 * 1024

async function readFile(file: File): Promise<string | null> {
  if (file.size > MAX_BYTES) {
    toast.error(`${file.name} is larger than 20 MB`)
    return null
  }
  return file.text()
}

/** The document to import: a file (chosen or dropped) loaded into an editable text area, or pasted text. */
export function SourceEditor({ name, text, format, onChange }: SourceEditorProps) {
  const [dragging, setDragging] = useState(false)
  const textId = useId()
  const hintId = useId()

  const load = async (file: File | undefined) => {
    if (!file) return
    const content = await readFile(file)
    if (content !== null) onChange({ name: file.name, text: content })
  }
  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault()
    setDragging(false)
    void load(event.dataTransfer.files[0])
  }

  return (
    <div className="transfer-source">
      <div
        className={dragging ? 'drop-zone drop-zone--active' : 'drop-zone'}
        onDragOver={(e) => {
          e.preventDefault()
          setDragging(true)
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        data-testid="import-drop-zone"
      >
        <span className="drop-zone__text">Drop a JSON or YAML definition here, or</span>
        <label className="btn btn--small drop-zone__button">
          Choose a file…
          <input
            type="file"
            className="drop-zone__input"
            accept=".json,.yaml,.yml,application/json,application/yaml,text/yaml"
            onChange={(e) => {
              void load(e.target.files?.[0])
              e.target.value = ''
            }}
            data-testid="import-file"
          />
        </label>
      </div>
      <div className="field transfer-text">
        <div className="transfer-text__label">
          <label htmlFor={textId} className="field__label">
            Document {name ? <span className="muted">({name})</span> : <span className="muted">(paste it here or load a file)</span>}
          </label>
          {format && (
            <span className="badge badge--accent" data-testid="import-format">
              {format.toUpperCase()}
            </span>
          )}
          {text && (
            <button type="button" className="btn btn--small" onClick={() => onChange({ name: '', text: '' })} data-testid="import-clear">
              Clear
            </button>
          )}
        </div>
        <textarea
          id={textId}
          className="input transfer-text__area"
          value={text}
          spellCheck={false}
          rows={10}
          aria-describedby={hintId}
          onChange={(e) => onChange({ name, text: e.target.value })}
          placeholder={'{\n  "formatVersion": 1,\n  "entities": [ … ]\n}'}
          data-testid="import-text"
        />
        <div id={hintId} className="field__hint">
          A partial document changes only what it names; add <code>&quot;prune&quot;: true</code> to remove what it does not
          name. Nothing is changed before you review the plan and apply it.
        </div>
      </div>
    </div>
  )
}
