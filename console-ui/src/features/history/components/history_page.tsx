import './history.css'
import { useSearchParams } from 'react-router'
import { Tab, TabGroup, TabList, TabPanel, TabPanels } from '@headlessui/react'
import { Page } from '../../../components/ui/page'
import type { AuditFilters } from '../api/keys'
import { AuditTab, AUDIT_LIMIT } from './audit_tab'
import { ChangelogTab } from './changelog_tab'

const TABS = ['changelog', 'audit'] as const

/** Paging is a step back in the browser's history; changing a filter is not. */
const isPaging = (next: object) => Object.keys(next).length === 1 && 'offset' in next

const offsetOf = (raw: string | null) => (raw && /^\d+$/.test(raw) ? Number(raw) : 0)

/**
 * What happened to the application: the schema changelog (DDL) and the audit trail (who changed
 * which element). The tab, the filters and the page live in the URL (`?tab=audit&element=…`).
 */
export function HistoryPage() {
  const [params, setParams] = useSearchParams()
  const tab = params.get('tab') === 'audit' ? 1 : 0
  const offset = offsetOf(params.get('offset'))
  const filters: AuditFilters = {
    section: params.get('section') ?? '',
    element: params.get('element') ?? '',
    author: params.get('author') ?? '',
    offset,
    limit: AUDIT_LIMIT,
  }

  const update = (next: Record<string, string | number>, replace = true) =>
    setParams(
      (current) => {
        const out = new URLSearchParams(current)
        for (const [key, value] of Object.entries(next)) {
          if (value === '' || value === 0) out.delete(key)
          else out.set(key, String(value))
        }
        return out
      },
      { replace }
    )

  return (
    <Page
      title="History"
      description="Every schema change the server applied, and every change an administrator made, with its diff."
      testId="history-page"
    >
      <TabGroup selectedIndex={tab} onChange={(i) => setParams({ tab: TABS[i] ?? 'changelog' })}>
        <TabList className="history-tabs" aria-label="History">
          <Tab className="history-tab" data-testid="tab-changelog">
            Schema changelog
          </Tab>
          <Tab className="history-tab" data-testid="tab-audit">
            Audit trail
          </Tab>
        </TabList>
        <TabPanels>
          <TabPanel className="history-panel" data-testid="changelog-panel">
            <h2 className="history-sr">Schema changelog</h2>
            <p className="muted history-panel__hint">
              The DDL statements applied to the database, newest first, with the model version they produced.
            </p>
            <ChangelogTab offset={offset} onOffset={(o) => update({ offset: o }, false)} />
          </TabPanel>
          <TabPanel className="history-panel" data-testid="audit-panel">
            <h2 className="history-sr">Audit trail</h2>
            <p className="muted history-panel__hint">
              One entry per applied change: who made it, from where, and the before/after of each element.
            </p>
            <AuditTab filters={filters} onChange={(next) => update({ ...next }, !isPaging(next))} />
          </TabPanel>
        </TabPanels>
      </TabGroup>
    </Page>
  )
}
