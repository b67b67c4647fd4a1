import type { Problem } from '../../../lib/admin'

/** The problems of an invalid document (422), each at its JSON path; nothing was changed. */
export function ProblemList({ problems }: { problems: Problem[] }) {
  return (
    <div className="error transfer-problems" role="alert" data-testid="import-problems">
      <strong>
        The document has {problems.length} problem{problems.length === 1 ? '' : 's'}; nothing was changed.
      </strong>
      <ul className="transfer-problems__list">
        {problems.map((p, i) => (
          <li key={i} data-testid="import-problem">
            <code className="transfer-problems__path">{p.path}</code> {p.message}
          </li>
        ))}
      </ul>
    </div>
  )
}
