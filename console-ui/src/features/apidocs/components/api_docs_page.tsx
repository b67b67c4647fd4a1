import { useMemo, useState } from 'react'
import { Page } from '../../../components/ui/page'
import { ErrorMessage } from '../../../components/ui/error_message'
import { Loading } from '../../../components/ui/loading'
import { useDetailedDocument } from '../api/docs'
import { groupOperations, serverPrefix, type Schema } from '../lib/reference'
import { OperationCard } from './operation_card'
import { SchemaTable } from './schemas_panel'
import './apidocs.css'

/** The component schema of an entity tag (`ref$Country` is `ref.Country`), if there is one. */
function EntitySchema({ name, schemas }: { name: string; schemas: Record<string, Schema> }) {
  const schema = schemas[name.replaceAll('$', '.')]
  return schema ? <SchemaTable name={name} schema={schema} /> : null
}

/**
 * API reference: the detailed OpenAPI document of the REST API rendered by the console itself
 * (no third-party renderer: the console's CSP allows no eval and no CDN), grouped by tag, with
 * "try it" on the console's own token.
 */
export function ApiDocsPage() {
  const document = useDetailedDocument()
  const [query, setQuery] = useState('')
  const groups = useMemo(
    () => (document.data ? groupOperations(document.data, query) : []),
    [document.data, query]
  )
  const schemas = (document.data?.components?.schemas ?? {}) as Record<string, Schema>
  // The document needs the token: downloaded from what was fetched, not through a plain link.
  const download = () => {
    const blob = new Blob([JSON.stringify(document.data, null, 2)], { type: 'application/json' })
    const url = URL.createObjectURL(blob)
    const a = window.document.createElement('a')
    a.href = url
    a.download = 'openapiDetailed.json'
    a.click()
    URL.revokeObjectURL(url)
  }
  return (
    <Page
      title="API reference"
      description="The REST API as OpenAPI 3.1 (GET /rest/docs/openapiDetailed.json): every route, and every entity you may read"
      testId="apidocs-page"
    >
      {document.isPending && <Loading label="Loading the API description…" />}
      {document.error && <ErrorMessage error={document.error} />}
      {document.data && (
        <>
          <p className="apidocs__meta">
            {document.data.info.title} · OpenAPI {document.data.openapi} · server{' '}
            <code>{document.data.servers?.[0]?.url}</code> ·{' '}
            <button type="button" className="btn btn--small" onClick={download}>
              Download JSON
            </button>
          </p>
          <label className="apidocs__search">
            <span>Filter operations</span>
            <input
              value={query}
              onChange={(e) => setQuery(e.target.value)}
              data-testid="apidocs-filter"
            />
          </label>
          {groups.map((group) => (
            <section
              key={group.tag}
              className="panel apidocs__group"
              data-testid={`tag-${group.tag}`}
            >
              <h2 className="panel__title">{group.tag}</h2>
              {group.description && <p className="apidocs__meta">{group.description}</p>}
              <EntitySchema name={group.tag} schemas={schemas} />
              <ul className="apidocs__ops">
                {group.operations.map((entry) => (
                  <OperationCard
                    key={`${entry.method} ${entry.path}`}
                    entry={entry}
                    prefix={serverPrefix(document.data)}
                  />
                ))}
              </ul>
            </section>
          ))}
        </>
      )}
    </Page>
  )
}
