import '@xyflow/react/dist/style.css'
import './er.css'
import { useState } from 'react'
import { Link } from 'react-router'
import { ReactFlowProvider } from '@xyflow/react'
import { EmptyState, Page } from '../../../components/ui/page'
import { ErrorMessage } from '../../../components/ui/error_message'
import { Loading } from '../../../components/ui/loading'
import { useErEntities } from '../api/entities'
import { ErCanvas } from './er_canvas'

// Time to first render (read by tests/browser/er.spec.ts): from the page's first render to every
// node measured ('er:ready' in er_canvas.tsx), as the measure 'er:render'.
function markMount() {
  performance.clearMarks('er:mount')
  performance.clearMarks('er:ready')
  performance.clearMeasures('er:render')
  performance.mark('er:mount')
  return true
}

/** The whole model as an entity-relationship diagram (lazily loaded: React Flow and dagre). */
export function ErPage() {
  useState(markMount)
  const entities = useErEntities()
  return (
    <Page
      title="ER diagram"
      description="Every entity with its attributes and relations. Drag to pan, scroll to zoom, click an entity to edit it."
      testId="er-page"
    >
      {entities.isPending && <Loading label="Loading the model…" />}
      {entities.error && <ErrorMessage error={entities.error} testId="er-error" />}
      {entities.data && entities.data.length === 0 && (
        <EmptyState title="No entities yet">
          Create the first one in the <Link to="/model">data model</Link> or import a definition on the{' '}
          <Link to="/import-export">import/export</Link> page.
        </EmptyState>
      )}
      {entities.data && entities.data.length > 0 && (
        <ReactFlowProvider>
          <ErCanvas entities={entities.data} />
        </ReactFlowProvider>
      )}
    </Page>
  )
}
