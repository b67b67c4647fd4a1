import { Link } from 'react-router'
import type { MatchedPattern, UrlTestResult } from '../api/settings'

const VERDICT: Record<UrlTestResult['kind'], { badge: string; text: string }> = {
  anonymous: { badge: 'badge badge--ok', text: 'Anonymous: no token needed' },
  authenticated: { badge: 'badge badge--accent', text: 'Token required' },
  open: { badge: 'badge badge--outline', text: 'Open: nothing required' },
  rejected: { badge: 'badge badge--bad', text: 'Refused before any pattern' },
}

function Pattern({ match, testId }: { match: MatchedPattern | null; testId: string }) {
  if (!match) return <span className="muted" data-testid={testId}>none matches</span>
  return (
    <span>
      <code className="mono" data-testid={testId}>
        {match.pattern}
      </code>{' '}
      <span className="muted">in {match.property}</span>
    </span>
  )
}

function Roles({ roles, empty }: { roles: string[]; empty: string }) {
  if (!roles.length) return <span className="muted">{empty}</span>
  return (
    <span className="url-test__roles">
      {roles.map((r) => (
        <span key={r} className="badge badge--outline mono">
          {r}
        </span>
      ))}
    </span>
  )
}

/** The server's answer, in words: the verdict, the deciding patterns, who the request runs as. */
export function UrlTestResultView({ result }: { result: UrlTestResult }) {
  const verdict = VERDICT[result.kind]
  const runsAs = result.runsAs
  return (
    <div className="url-test" data-testid="url-test-result" aria-live="polite">
      <p className="url-test__verdict">
        <span className={verdict.badge} data-testid="url-test-verdict">
          {verdict.text}
        </span>{' '}
        <span className="mono">
          {result.method} {result.path}
        </span>
        {result.candidate && <span className="badge badge--warn">unsaved lists</span>}
        <span hidden data-testid="url-test-kind">
          {result.kind}
        </span>
      </p>
      {result.rejected ? (
        <p data-testid="url-test-rejected">
          HTTP {result.rejected.status}: {result.rejected.reason}. The path firewall refuses this request before any pattern is
          looked at.
        </p>
      ) : (
        <dl className="facts url-test__facts">
          <dt>Path the patterns see</dt>
          <dd className="mono" data-testid="url-test-normalized">
            {result.normalizedPath}
          </dd>
          <dt>Anonymous pattern</dt>
          <dd>
            <Pattern match={result.anonymous} testId="url-test-anonymous-pattern" />
          </dd>
          <dt>Authenticated pattern</dt>
          <dd>
            <Pattern match={result.authenticated} testId="url-test-authenticated-pattern" />
            {result.anonymous && result.authenticated && <span className="muted"> (the anonymous pattern wins)</span>}
          </dd>
          <dt>Token</dt>
          <dd data-testid="url-test-token">{result.tokenRequired ? 'required (else 401)' : 'not needed'}</dd>
          <dt>Runs as</dt>
          <dd data-testid="url-test-runs-as">
            {runsAs ? (
              <>
                <strong className="mono">{runsAs.user}</strong> without an Authorization header (a valid token still runs as
                its own user or client)
                <span className="url-test__role-line">
                  Resource roles:{' '}
                  <span data-testid="url-test-roles">
                    <Roles roles={runsAs.resourceRoles} empty="none: every data request would be refused (403)" />
                  </span>
                </span>
                <span className="url-test__role-line">
                  Row-level roles: <Roles roles={runsAs.rowLevelRoles} empty="none" />
                </span>
                <Link to="/users/anonymous">Change the roles of anonymous</Link>
              </>
            ) : result.tokenRequired ? (
              'the user or client of the token'
            ) : (
              'nobody in particular: a valid token still names its user or client'
            )}
          </dd>
          <dt>Route</dt>
          <dd>
            {result.route ? (
              <span className="mono" data-testid="url-test-route">
                {result.method} {result.route}
              </span>
            ) : (
              <span className="muted" data-testid="url-test-route">
                no route for {result.method} (404 or 405)
              </span>
            )}
          </dd>
        </dl>
      )}
      {!result.canonical && !result.rejected && (
        <p className="notice">
          The path escapes a character that needs no escaping, so anonymous patterns do not apply to it.
        </p>
      )}
      {result.method === 'OPTIONS' && (
        <p className="muted">A CORS preflight (OPTIONS with Origin and Access-Control-Request-Method) is never blocked.</p>
      )}
    </div>
  )
}
