import { useState } from 'react'
import type { Problem } from '../../../lib/admin'
import { ANONYMOUS, AUTHENTICATED, LEGACY_ANONYMOUS, type PatternProperty, type Setting } from '../api/settings'
import { PatternList } from './pattern_list'
import { UrlTester } from './url_tester'

interface UrlAccessPanelProps {
  settings: Setting[]
  version: number | null
}

type Drafts = Partial<Record<PatternProperty, string[]>>

/** `$.patterns['svc.x'][2]` -> ['svc.x', 2]. */
function problemRow(path: string): [string, number] | null {
  const match = /^\$\.patterns\['([^']+)'\](?:\[(\d+)\])?$/.exec(path)
  return match ? [match[1] ?? '', Number(match[2] ?? 0)] : null
}

/**
 * The resource server's URL pattern lists, edited as lists, and the URL tester that asks the
 * server how it would treat a request — with the stored lists or with the unsaved ones.
 */
export function UrlAccessPanel({ settings, version }: UrlAccessPanelProps) {
  const [drafts, setDrafts] = useState<Drafts>({})
  const [testProblems, setTestProblems] = useState<Problem[]>([])
  const byName = new Map(settings.map((s) => [s.name, s]))
  const anonymous = byName.get(ANONYMOUS)
  const legacy = byName.get(LEGACY_ANONYMOUS)
  const authenticated = byName.get(AUTHENTICATED)
  if (!anonymous || !authenticated) return null

  const setDraft = (name: PatternProperty) => (rows: string[] | undefined) => {
    setTestProblems([])
    setDrafts((d) => {
      const next = { ...d }
      if (rows === undefined) delete next[name]
      else next[name] = rows
      return next
    })
  }
  const errorsOf = (name: PatternProperty) => {
    const out: Record<number, string> = {}
    for (const p of testProblems) {
      const at = problemRow(p.path)
      if (at && at[0] === name) out[at[1]] = p.message
    }
    return out
  }
  const list = (setting: Setting, name: PatternProperty, title: string, explanation: string, testId: string) => (
    <PatternList
      setting={setting}
      title={title}
      explanation={explanation}
      version={version}
      draft={drafts[name]}
      onDraft={setDraft(name)}
      testErrors={errorsOf(name)}
      testId={testId}
    />
  )
  const candidate = Object.keys(drafts).length
    ? Object.fromEntries(
        Object.entries(drafts).map(([k, rows]) => [k, rows.map((r) => r.trim()).filter(Boolean)])
      )
    : null
  const legacyUsed = legacy && (legacy.source !== 'default' || (Array.isArray(legacy.value) && legacy.value.length > 0))

  return (
    <>
      <section className="panel" id="url-access" data-testid="url-access" aria-labelledby="url-access-title">
        <h2 className="panel__title" id="url-access-title">
          URL access
        </h2>
        <p className="muted url-access__intro">
          Requests to an <strong>authenticated</strong> URL need a bearer token (else 401). Requests to an{' '}
          <strong>anonymous</strong> URL without an Authorization header run as the built-in user{' '}
          <span className="mono">anonymous</span>, with its roles; an anonymous pattern wins over an authenticated one.
          Ant patterns: <span className="mono">*</span> within a segment, <span className="mono">**</span> any segments.{' '}
          <span className="mono">/**</span> is never accepted as anonymous.
        </p>
        <div className="url-access__lists">
          {list(anonymous, ANONYMOUS, 'Anonymous URL patterns', 'No token needed: runs as the anonymous user.', 'anonymous-patterns')}
          {list(authenticated, AUTHENTICATED, 'Authenticated URL patterns', 'A valid bearer token is required (case-insensitive match).', 'authenticated-patterns')}
        </div>
        {legacy && (
          <details className="url-access__legacy" open={legacyUsed || drafts[LEGACY_ANONYMOUS] !== undefined}>
            <summary>Older name of the anonymous list ({legacyUsed ? 'in use' : 'empty'})</summary>
            {list(legacy, LEGACY_ANONYMOUS, 'Anonymous URL patterns (older name)', 'Combined with the list above; kept for applications configured with the older name.', 'legacy-patterns')}
          </details>
        )}
      </section>
      <UrlTester candidate={candidate} onProblems={setTestProblems} />
    </>
  )
}
