import { useState } from 'react'

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b)

/**
 * An editor's draft of stored data, with the definition version it was read at (sent as
 * If-Match). While nothing is edited the draft follows the stored data. With edits, a newer
 * version is adopted only when the stored part this editor edits did not change (e.g. another
 * panel of the same page applied a change); otherwise the old version stays and the server
 * answers 412, which the page explains.
 */
export function useDraft<T>(stored: T, version: number | null) {
  const [state, setState] = useState({ base: stored, version, draft: stored })
  if (!same(state.base, stored) || state.version !== version) {
    const dirty = !same(state.draft, state.base)
    if (!dirty) setState({ base: stored, version, draft: stored })
    else if (same(state.base, stored)) setState({ ...state, version })
  }
  return {
    draft: state.draft,
    base: state.base,
    version: state.version,
    dirty: !same(state.draft, state.base),
    setDraft: (draft: T) => setState((s) => ({ ...s, draft })),
    /** Back to the stored data (after a reload, or Discard). */
    reset: () => setState({ base: stored, version, draft: stored }),
  }
}
