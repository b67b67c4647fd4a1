/*
 * The band tree (Root's children): pick a band to edit its name, orientation, datasets and
 * computed fields; add a child or a top band, remove one. Below, the preview of a band's rows.
 */
import { useState } from 'react'
import { Field } from '../../../components/ui/field'
import { Panel } from '../../../components/ui/panel'
import { useModelEntities, useModelEnums } from '../../../lib/model'
import type { BandDefinition, Orientation, ReportDefinition } from '../api/types'
import { addBand, bandAt, bandProblemPath, blankDataset, errorsUnder, flattenBands, removeBand, updateBand, type BandPath } from '../lib/draft'
import { DatasetEditor } from './dataset_editor'
import { ComputedEditor } from './computed_editor'
import { BandPreview } from './band_preview'

interface Props {
  report: ReportDefinition
  saved: boolean
  onChange: (bands: BandDefinition[]) => void
  /** Every problem of the form (full paths). */
  errors: Record<string, string>
}

const same = (a: BandPath, b: BandPath) => a.length === b.length && a.every((x, i) => x === b[i])

/** The fields of the bands above `path` as `:Band.field` placeholders. */
function parentFields(bands: BandDefinition[], path: BandPath): string[] {
  const out: string[] = []
  for (let n = 1; n < path.length; n++) {
    const b = bandAt(bands, path.slice(0, n))
    if (!b) continue
    for (const f of [...b.datasets.flatMap((d) => d.fields ?? []), ...Object.keys(b.computed ?? {})]) out.push(`:${b.name}.${f}`)
  }
  return out
}

export function BandsEditor({ report, saved, onChange, errors }: Props) {
  const entities = useModelEntities()
  const enums = useModelEnums()
  const sorted = (entities.data ?? []).slice().sort((a, b) => a.name.localeCompare(b.name))
  const [selected, setSelected] = useState<BandPath>(report.bands.length ? [0] : [])
  const flat = flattenBands(report.bands)
  const band = bandAt(report.bands, selected)
  const path = band ? selected : []
  const prefix = bandProblemPath(path)
  const bandErrors = band ? errorsUnder(errors, prefix) : {}
  const set = (fn: (b: BandDefinition) => BandDefinition) => onChange(updateBand(report.bands, path, fn))
  const add = (parent: BandPath | null) => {
    const next = addBand(report.bands, parent)
    onChange(next.bands)
    setSelected(next.path)
  }

  return (
    <>
      <Panel title="Bands" testId="report-bands">
        <p className="muted rp-lead">
          A report is a tree of bands under the implicit <code>Root</code>; every band has rows from its datasets, and a child band runs once per row of its parent (bind
          parent values as <code>:Band.field</code>). Data is read as the user who runs the report: their permissions apply.
        </p>
        <div className="rp-bands">
          <nav className="rp-tree" aria-label="Band tree">
            <div className="rp-tree__root mono muted">Root</div>
            {flat.length === 0 && <p className="muted rp-small">No band yet.</p>}
            <ul className="rp-tree__list">
              {flat.map((f) => {
                const bad = Object.keys(errorsUnder(errors, bandProblemPath(f.path))).some((k) => !k.startsWith('children'))
                return (
                  <li key={f.path.join('.')} style={{ paddingLeft: `${f.depth * 16}px` }}>
                    <button
                      type="button"
                      className={same(f.path, path) ? 'rp-tree__item rp-tree__item--active' : 'rp-tree__item'}
                      aria-current={same(f.path, path) ? 'true' : undefined}
                      onClick={() => setSelected(f.path)}
                      data-testid="band-item"
                    >
                      <span className="mono">{f.band.name || '(unnamed)'}</span>
                      <span className="muted rp-small">
                        {f.band.datasets.length} dataset{f.band.datasets.length === 1 ? '' : 's'}
                      </span>
                      {bad && <span className="badge badge--bad">!</span>}
                    </button>
                  </li>
                )
              })}
            </ul>
            <div className="rp-tree__actions">
              <button type="button" className="btn btn--small" onClick={() => add(null)} data-testid="band-add">
                + Top band
              </button>
              {band && (
                <button type="button" className="btn btn--small" onClick={() => add(path)} data-testid="band-add-child">
                  + Child of {band.name || 'this band'}
                </button>
              )}
            </div>
          </nav>
          <div className="rp-band" data-testid="band-detail">
            {!band && <p className="muted">Add a band to give the report data.</p>}
            {band && (
              <>
                <div className="form-grid">
                  <Field label="Band name" error={bandErrors.name} hint="Latin letters, digits, _ — the name templates use (${Band.field}, ##band=Band).">
                    <input value={band.name} onChange={(e) => set((b) => ({ ...b, name: e.target.value }))} className="mono" data-testid="band-name" />
                  </Field>
                  <Field label="Orientation" error={bandErrors.orientation}>
                    <select value={band.orientation ?? 'HORIZONTAL'} onChange={(e) => set((b) => ({ ...b, orientation: e.target.value as Orientation }))} data-testid="band-orientation">
                      <option value="HORIZONTAL">Horizontal (rows go down)</option>
                      <option value="VERTICAL">Vertical (rows go right)</option>
                    </select>
                  </Field>
                </div>
                {bandErrors[''] && (
                  <p className="field__error" role="alert">
                    {bandErrors['']}
                  </p>
                )}
                <h3 className="rp-subhead">Datasets</h3>
                {band.datasets.length === 0 && <p className="muted rp-small">No dataset: the band has no rows.</p>}
                {band.datasets.map((d, i) => (
                  <DatasetEditor
                    key={`${path.join('.')}-${i}`}
                    dataset={d}
                    index={i}
                    onChange={(next) => set((b) => ({ ...b, datasets: b.datasets.map((x, j) => (j === i ? next : x)) }))}
                    onRemove={() => set((b) => ({ ...b, datasets: b.datasets.filter((_, j) => j !== i) }))}
                    params={report.inputParameters}
                    parentFields={parentFields(report.bands, path)}
                    entities={sorted}
                    enums={enums.data ?? []}
                    errors={errorsUnder(bandErrors, `datasets[${i}]`)}
                  />
                ))}
                <button type="button" className="btn btn--small" onClick={() => set((b) => ({ ...b, datasets: [...b.datasets, blankDataset()] }))} data-testid="dataset-add">
                  + Add dataset
                </button>
                <h3 className="rp-subhead">Computed fields</h3>
                <ComputedEditor key={path.join('.')} value={band.computed ?? {}} onChange={(computed) => set((b) => ({ ...b, computed }))} errors={errorsUnder(bandErrors, 'computed')} />
                <div className="rp-card__foot rp-band__foot">
                  <span className="rp-spacer" />
                  <button
                    type="button"
                    className="btn btn--small btn--danger"
                    onClick={() => {
                      onChange(removeBand(report.bands, path))
                      setSelected(path.length > 1 ? path.slice(0, -1) : report.bands.length > 1 ? [0] : [])
                    }}
                    data-testid="band-remove"
                  >
                    Remove band {band.name}
                    {band.children.length ? ` and its ${band.children.length} child band${band.children.length === 1 ? '' : 's'}` : ''}
                  </button>
                </div>
              </>
            )}
          </div>
        </div>
      </Panel>
      <BandPreview report={report} saved={saved} selected={band?.name} />
    </>
  )
}
