import type { ChangeResult, Risk } from '../../lib/admin'

/** Plain words for a step kind of the engine's plan. */
const KIND_LABELS: Record<string, string> = {
  createTable: 'Create table',
  dropTable: 'Drop table',
  renameTable: 'Rename table',
  addColumn: 'Add column',
  dropColumn: 'Drop column',
  renameColumn: 'Rename column',
  alterColumn: 'Change column',
  createIndex: 'Create index',
  dropIndex: 'Drop index',
}

export const kindLabel = (kind: string) =>
  KIND_LABELS[kind] ?? kind.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/^./, (c) => c.toUpperCase())

/** Change lines read "entity X: added", "attribute y of X: removed", "entity X: renamed from W". */
function changeClass(line: string) {
  if (/:\s*(added|created)$/i.test(line) || /^(add|create)\b/i.test(line)) return 'plan__change plan__change--add'
  if (/:\s*(removed|dropped|deleted)$/i.test(line) || /^(remove|drop|delete)\b/i.test(line))
    return 'plan__change plan__change--remove'
  return 'plan__change plan__change--modify'
}

export function RiskList({ risks }: { risks: Risk[] }) {
  if (risks.length === 0) return null
  return (
    <ul className="plan__risks" data-testid="plan-risks">
      {risks.map((risk, i) => (
        <li key={i} className={risk.overridable ? 'risk risk--warn' : 'risk risk--block'}>
          <strong>{risk.overridable ? 'Data would be lost: ' : 'Not possible: '}</strong>
          {risk.message}
          {risk.rows !== undefined && (
            <span className="risk__rows">
              {' '}
              ({risk.rows} row{risk.rows === 1 ? '' : 's'}
              {risk.table ? ` in ${risk.table}` : ''})
            </span>
          )}
        </li>
      ))}
    </ul>
  )
}

/** What a change will do (or did): the change lines, the risks, each step with its SQL. */
export function PlanView({ result }: { result: ChangeResult }) {
  const sqlCount = result.steps.reduce((n, s) => n + s.sql.length, 0)
  if (result.changes.length === 0 && result.steps.length === 0)
    return (
      <p className="plan__none" data-testid="plan-unchanged">
        Nothing to change: the stored definition already says this.
      </p>
    )
  return (
    <div className="plan" data-testid="plan-view">
      <RiskList risks={result.risks ?? []} />
      {result.changes.length > 0 && (
        <>
          <h3 className="plan__heading">Changes</h3>
          <ul className="plan__changes" data-testid="plan-changes">
            {result.changes.map((line, i) => (
              <li key={i} className={changeClass(line)}>
                {line}
              </li>
            ))}
          </ul>
        </>
      )}
      {result.steps.length > 0 && (
        <>
          <h3 className="plan__heading">
            Database operations <span className="muted">({sqlCount} SQL statement{sqlCount === 1 ? '' : 's'})</span>
          </h3>
          <ol className="plan__steps" data-testid="plan-steps">
            {result.steps.map((step, i) => (
              <li key={i} className="plan__step">
                <div>
                  <span className="badge">{kindLabel(step.kind)}</span> <code>{step.target}</code>{' '}
                  <span className="muted">{step.description}</span>
                </div>
                {step.sql.length > 0 && (
                  <pre className="plan__sql" data-testid="plan-sql">
                    {step.sql.join(';\n') + ';'}
                  </pre>
                )}
              </li>
            ))}
          </ol>
        </>
      )}
    </div>
  )
}
