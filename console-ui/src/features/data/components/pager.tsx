import { PAGE_SIZES } from '../hooks/use_table_state'

interface PagerProps {
  page: number
  size: number
  total: number
  /** The rows shown: their offset and count. */
  offset: number
  count: number
  onPage: (page: number) => void
  onSize: (size: number) => void
}

/** "Rows 51–100 of 230", first/previous/next/last, page size. */
export function Pager({ page, size, total, offset, count, onPage, onSize }: PagerProps) {
  const pages = Math.max(1, Math.ceil(total / size))
  const from = count ? offset + 1 : 0
  const to = offset + count
  return (
    <nav className="data-pager" aria-label="Pages" data-testid="pager">
      <span className="muted" data-testid="pager-range">
        {from}–{to} of {total}
      </span>
      <span className="data-pager__buttons">
        <button
          type="button"
          className="btn btn--small"
          disabled={page <= 1}
          onClick={() => onPage(1)}
          aria-label="First page"
        >
          «
        </button>
        <button
          type="button"
          className="btn btn--small"
          disabled={page <= 1}
          onClick={() => onPage(page - 1)}
          aria-label="Previous page"
          data-testid="page-prev"
        >
          ‹
        </button>
        <span className="data-pager__page">
          Page {page} of {pages}
        </span>
        <button
          type="button"
          className="btn btn--small"
          disabled={page >= pages}
          onClick={() => onPage(page + 1)}
          aria-label="Next page"
          data-testid="page-next"
        >
          ›
        </button>
        <button
          type="button"
          className="btn btn--small"
          disabled={page >= pages}
          onClick={() => onPage(pages)}
          aria-label="Last page"
        >
          »
        </button>
      </span>
      <label className="data-pager__size">
        <span>Rows per page</span>
        <select
          className="input"
          value={size}
          onChange={(e) => onSize(Number(e.target.value))}
          data-testid="page-size"
        >
          {PAGE_SIZES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
      </label>
    </nav>
  )
}
