interface PagerProps {
  total: number
  offset: number
  limit: number
  onOffset: (offset: number) => void
  /** What is counted ("changes", "entries"). */
  noun: string
  testId?: string
}

/** "1–50 of 120" with previous/next buttons. */
export function Pager({ total, offset, limit, onOffset, noun, testId = 'pager' }: PagerProps) {
  if (total === 0) return null
  const last = Math.min(offset + limit, total)
  return (
    <nav className="history-pager" aria-label={`Pages of ${noun}`} data-testid={testId}>
      <span className="muted" data-testid={`${testId}-range`}>
        {offset + 1}–{last} of {total} {noun}
      </span>
      <button
        type="button"
        className="btn btn--small"
        disabled={offset === 0}
        onClick={() => onOffset(Math.max(0, offset - limit))}
      >
        Previous
      </button>
      <button
        type="button"
        className="btn btn--small"
        disabled={last >= total}
        onClick={() => onOffset(offset + limit)}
        data-testid={`${testId}-next`}
      >
        Next
      </button>
    </nav>
  )
}
