/*
 * The report editor: general facts, parameters, bands with their datasets (and a preview of a
 * band's rows for the unsaved draft), value formats and templates, as tabs over one draft.
 * Saving sends the whole definition (PUT with If-Match, POST for a new one) through the planned
 * change; the server's 422 problems show at their fields and count on their tab.
 */
import { useState } from 'react'
import { useNavigate } from 'react-router'
import { useQueryClient } from '@tanstack/react-query'
import { Tab, TabGroup, TabList, TabPanel, TabPanels } from '@headlessui/react'
import { adminChange, currentDefinitionVersion, fieldErrors } from '../../../lib/admin'
import { usePlannedChange } from '../../../components/plan/use_planned_change'
import { reportPath, useReports } from '../api/reports'
import type { ReportDefinition } from '../api/types'
import { blankReport, errorsUnder, reportBody } from '../lib/draft'
import { GeneralPanel } from './general_panel'
import { ParametersEditor } from './parameters_editor'
import { BandsEditor } from './bands_editor'
import { TemplatesEditor } from './templates_editor'
import { FormatsEditor } from './formats_editor'

const TABS = [
  { key: 'general', label: 'General', match: /^(name|code|group|description|roles|restAccess|localeNames|id)\b/ },
  { key: 'parameters', label: 'Parameters', match: /^inputParameters\b/ },
  { key: 'bands', label: 'Bands & data', match: /^bands\b/ },
  { key: 'templates', label: 'Templates', match: /^templates\b/ },
  { key: 'formats', label: 'Value formats', match: /^valueFormats\b/ },
] as const

export function ReportForm({ report, version: loadedVersion }: { report?: ReportDefinition; version: number | null }) {
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const list = useReports()
  const [draft, setDraft] = useState<ReportDefinition | null>(null)
  const [version, setVersion] = useState(loadedVersion)
  const [tab, setTab] = useState(0)
  const [initial] = useState(() => report ?? blankReport())
  const value = draft ?? report ?? initial
  const update = (patch: Partial<ReportDefinition>) => {
    // A draft starts from the data as last loaded: its version is the one to send as If-Match.
    if (draft === null && loadedVersion !== null) setVersion(loadedVersion)
    setDraft({ ...value, ...patch })
  }
  const body = reportBody(value)
  const dirty = draft !== null && JSON.stringify(body) !== JSON.stringify(reportBody(report ?? initial))
  const saved = Boolean(report)

  const change = usePlannedChange({
    title: report ? `Save report ${report.name}` : `Create report ${body.name}`,
    success: report ? 'Report saved' : 'Report created',
    onApplied: () => {
      setDraft(null)
      setVersion(currentDefinitionVersion())
      if (!report) navigate(`/reports/${body.id}`, { replace: true })
    },
  })
  const save = () =>
    void change.start((opts) => adminChange(report ? 'PUT' : 'POST', report ? reportPath(report.id) : 'reports', body, { ...opts, ifMatch: report ? (version ?? undefined) : undefined }))

  const errors = fieldErrors(change.error)
  const counts = TABS.map((t) => Object.keys(errors).filter((k) => t.match.test(k)).length)
  const other = Object.entries(errors).filter(([k]) => !TABS.some((t) => t.match.test(k)))

  return (
    <form
      onSubmit={(e) => {
        e.preventDefault()
        save()
      }}
      data-testid="report-form"
    >
      <TabGroup selectedIndex={tab} onChange={setTab}>
        <TabList className="rp-tabs" aria-label="Report parts">
          {TABS.map((t, i) => (
            <Tab key={t.key} className="rp-tab" data-testid={`report-tab-${t.key}`}>
              {t.label}
              {counts[i]! > 0 && <span className="badge badge--bad rp-tab__count">{counts[i]}</span>}
            </Tab>
          ))}
        </TabList>
        <TabPanels>
          <TabPanel>
            <GeneralPanel value={value} update={update} groups={list.data?.groups ?? []} errors={errors} />
          </TabPanel>
          <TabPanel>
            <ParametersEditor params={value.inputParameters} onChange={(inputParameters) => update({ inputParameters })} errors={errorsUnder(errors, 'inputParameters')} />
          </TabPanel>
          <TabPanel>
            <BandsEditor report={value} saved={saved} onChange={(bands) => update({ bands })} errors={errors} />
          </TabPanel>
          <TabPanel>
            <TemplatesEditor
              report={value}
              stored={report}
              onChange={(templates) => update({ templates })}
              onUploaded={(code, fileName, size) => {
                setVersion(currentDefinitionVersion())
                if (draft) setDraft({ ...draft, templates: draft.templates.map((t) => (t.code === code ? { ...t, fileName, size } : t)) })
                void queryClient.invalidateQueries({ queryKey: ['admin'] })
              }}
              errors={errorsUnder(errors, 'templates')}
            />
          </TabPanel>
          <TabPanel>
            <FormatsEditor formats={value.valueFormats} onChange={(valueFormats) => update({ valueFormats })} errors={errorsUnder(errors, 'valueFormats')} />
          </TabPanel>
        </TabPanels>
      </TabGroup>
      <div className="rp-savebar">
        <span className="muted">
          {other.length > 0 ? (
            <span className="field__error" role="alert" data-testid="report-errors">
              {other.map(([k, m]) => (k ? `${k}: ${m}` : m)).join('; ')}
            </span>
          ) : dirty ? (
            'Unsaved changes'
          ) : report ? (
            'No changes'
          ) : (
            'New report'
          )}
        </span>
        <button type="submit" className="btn btn--primary" disabled={change.busy || (!dirty && saved) || !value.name.trim()} data-testid="report-save">
          {change.busy ? 'Planning…' : report ? 'Review and save' : 'Review and create'}
        </button>
      </div>
      {change.dialog}
    </form>
  )
}
