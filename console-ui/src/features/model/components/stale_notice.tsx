import { ApiError } from '../../../lib/api'

interface StaleNoticeProps {
  error: unknown
  onReload: () => void
}

/**
 * A 412: the definition changed since this editor loaded it (another admin, a script, an
 * import). Nothing was changed; reloading shows the other change, and the edit can be redone.
 */
export function StaleNotice({ error, onReload }: StaleNoticeProps) {
  if (!(error instanceof ApiError) || error.status !== 412) return null
  return (
    <div className="notice stale" role="alert" data-testid="stale-notice">
      <div>
        <strong>The model changed while you were editing.</strong> Someone (or a script) changed the
        definition after this page loaded it, so your change was not applied — nothing was changed.
        Reload to see the current state, then make your change again.
      </div>
      <button
        type="button"
        className="btn btn--small"
        onClick={onReload}
        data-testid="stale-reload"
      >
        Reload
      </button>
    </div>
  )
}
