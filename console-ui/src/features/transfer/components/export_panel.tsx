import { useState } from 'react'
import { toast } from 'sonner'
import { errorText } from '../../../lib/admin'
import { exportText, saveFile, useDefinition, type DocFormat } from '../api/definition'

const SECTIONS: [key: string, one: string, many: string][] = [
  ['entities', 'entity', 'entities'],
  ['enums', 'enum', 'enums'],
  ['fetchPlans', 'fetch plan', 'fetch plans'],
  ['resourceRoles', 'resource role', 'resource roles'],
  ['rowLevelRoles', 'row-level role', 'row-level roles'],
  ['users', 'user', 'users'],
  ['clients', 'client', 'clients'],
]

const count = (value: unknown) =>
  Array.isArray(value) ? value.length : value && typeof value === 'object' ? Object.keys(value).length : 0

/** Export: the whole definition as a JSON or YAML file (as `node ace app:export`). */
export function ExportPanel() {
  const definition = useDefinition()
  const [busy, setBusy] = useState<DocFormat | null>(null)

  async function download(format: DocFormat) {
    setBusy(format)
    try {
      const { text, version } = await exportText(format)
      const stamp = version === null ? '' : `-v${version}`
      saveFile(
        text,
        `modelgate-definition${stamp}.${format}`,
        format === 'yaml' ? 'application/yaml' : 'application/json'
      )
    } catch (error) {
      toast.error(errorText(error))
    } finally {
      setBusy(null)
    }
  }

  const doc = definition.data?.data
  return (
    <section className="panel" data-testid="export-panel" aria-labelledby="export-title">
      <h2 className="panel__title" id="export-title">
        Export
      </h2>
      <p className="transfer-summary" data-testid="export-summary">
        {doc ? (
          <>
            Definition version <strong>v{definition.data?.version ?? '?'}</strong>:{' '}
            {SECTIONS.filter(([key]) => count(doc[key]) > 0)
              .map(([key, one, many]) => `${count(doc[key])} ${count(doc[key]) === 1 ? one : many}`)
              .join(', ') || 'empty'}
            .
          </>
        ) : (
          <span className="muted">{definition.error ? errorText(definition.error) : 'Reading the definition…'}</span>
        )}
      </p>
      <p className="muted transfer-hint">
        Everything an administrator configures, as one file: the model, roles, users (password digests), clients (secret
        digests), settings and translations. Importing the export of an application changes nothing.
      </p>
      <div className="toolbar">
        <button type="button" className="btn" disabled={busy !== null} onClick={() => void download('json')} data-testid="export-json">
          {busy === 'json' ? 'Preparing…' : 'Download JSON'}
        </button>
        <button type="button" className="btn" disabled={busy !== null} onClick={() => void download('yaml')} data-testid="export-yaml">
          {busy === 'yaml' ? 'Preparing…' : 'Download YAML'}
        </button>
      </div>
    </section>
  )
}
