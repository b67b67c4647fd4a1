/** Small display helpers of the reports pages. */

export function formatBytes(n: number | null | undefined): string {
  if (n === null || n === undefined) return ''
  if (n < 1024) return `${n} B`
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} kB`
  return `${(n / 1024 / 1024).toFixed(1)} MB`
}

export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return ''
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`
}

/** "3 min ago", "yesterday"-like text for recent times, the date beyond a week. */
export function formatWhen(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return ''
  const t = Date.parse(iso)
  if (Number.isNaN(t)) return iso
  const s = Math.round((now - t) / 1000)
  if (s < 45) return 'just now'
  if (s < 3600) return `${Math.round(s / 60)} min ago`
  if (s < 86_400) return `${Math.round(s / 3600)} h ago`
  if (s < 7 * 86_400) return `${Math.round(s / 86_400)} d ago`
  return new Date(t).toLocaleDateString()
}

/** Badge class of an outcome (`success`, `error`, `refused`…). */
export const outcomeClass = (outcome: string) =>
  /^(ok|success|succeeded|done)$/i.test(outcome) ? 'badge badge--ok' : /cancel|refus|limit|timeout/i.test(outcome) ? 'badge badge--warn' : 'badge badge--bad'
