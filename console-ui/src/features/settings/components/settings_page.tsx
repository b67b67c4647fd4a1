import { useMemo, useState } from 'react'
import { useSearchParams } from 'react-router'
import { EmptyState, Page } from '../../../components/ui/page'
import { ErrorMessage } from '../../../components/ui/error_message'
import { Loading } from '../../../components/ui/loading'
import { PATTERN_PROPERTIES, useSettings } from '../api/settings'
import { groupSettings, matches } from '../lib/settings_model'
import { SettingRow } from './setting_row'
import { UrlAccessPanel } from './url_access_panel'
import './settings.css'

const isPatternList = (name: string) => (PATTERN_PROPERTIES as readonly string[]).includes(name)

/** Every svc.* property, grouped by prefix, searchable, edited in place; URL access and its tester. */
export function SettingsPage() {
  const settings = useSettings()
  const [params, setParams] = useSearchParams()
  const query = params.get('q') ?? ''
  const [changedOnly, setChangedOnly] = useState(false)
  const setQuery = (q: string) =>
    setParams(
      (p) => {
        if (q) p.set('q', q)
        else p.delete('q')
        return p
      },
      { replace: true }
    )

  const groups = useMemo(() => {
    const all = settings.data?.settings ?? []
    const shown = all.filter((s) => matches(s, query) && (!changedOnly || s.source !== 'default'))
    return groupSettings(shown)
  }, [settings.data, query, changedOnly])
  const total = settings.data?.settings.length ?? 0
  const shownCount = groups.reduce((n, g) => n + g.settings.length, 0)

  return (
    <Page
      title="Settings"
      description="The svc.* properties of this server. A value stored here wins over config/application.properties and the environment and applies from the next request, on every instance."
      testId="settings-page"
    >
      {settings.isPending ? (
        <Loading />
      ) : settings.error ? (
        <ErrorMessage error={settings.error} />
      ) : (
        <>
          <UrlAccessPanel settings={settings.data.settings} version={settings.data.version} />
          <section aria-labelledby="properties-title" className="settings-properties">
            <h2 id="properties-title" className="settings-properties__title">
              All properties
            </h2>
            <div className="toolbar settings-toolbar" role="search">
              <input
                type="search"
                className="input"
                placeholder="Search name, variable, description or value"
                aria-label="Search properties"
                value={query}
                onChange={(e) => setQuery(e.target.value)}
                data-testid="settings-search"
              />
              <label className="check">
                <input type="checkbox" checked={changedOnly} onChange={(e) => setChangedOnly(e.target.checked)} data-testid="settings-changed-only" />
                Only values not at their default
              </label>
              <span className="muted" data-testid="settings-count">
                {shownCount === total ? `${total} properties` : `${shownCount} of ${total} properties`}
              </span>
            </div>
            {groups.length === 0 && (
              <EmptyState title="No property matches">Try another word, or clear the search.</EmptyState>
            )}
            {groups.map((group) => (
              <section key={group.key} className="panel settings-group" data-testid={`settings-group-${group.key}`} aria-labelledby={`group-${group.key}`}>
                <h3 className="settings-group__title" id={`group-${group.key}`}>
                  {group.title} <span className="muted settings-group__hint">{group.hint}</span>
                </h3>
                <ul className="settings-list">
                  {group.settings.map((s) => (
                    <SettingRow
                      key={s.name}
                      setting={s}
                      version={settings.data.version}
                      editedAt={isPatternList(s.name) ? { href: '#url-access', label: 'Edit in URL access' } : undefined}
                    />
                  ))}
                </ul>
              </section>
            ))}
          </section>
        </>
      )}
    </Page>
  )
}
