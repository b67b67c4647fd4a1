import { useState, type ReactNode } from 'react'
import { useQueryClient } from '@tanstack/react-query'
import { toast } from 'sonner'
import { ApiError } from '../../lib/api'
import { errorText, risksOf, type ChangeOptions, type ChangeResult } from '../../lib/admin'
import { Dialog } from '../ui/dialog'
import { PlanView } from './plan_view'

type Run<T> = (options: ChangeOptions) => Promise<T>

interface PlannedChangeOptions {
  /** Dialog title, e.g. "Add attribute price". */
  title: string
  /** Toast after a successful apply. */
  success?: string
  /** Called with the applied answer (navigate, reset the form…). */
  onApplied?: (result: ChangeResult) => void
  /** Query keys to invalidate after the change (the admin area is always invalidated). */
  invalidate?: readonly unknown[][]
}

/**
 * Every change shows its plan before it is applied: `start(run)` asks the server for a dry run
 * of `run`, shows the operations, SQL and risks, and applies only when the admin confirms
 * (with an explicit tick where data would be lost). Validation errors of the dry run come back
 * as `error` for the form to show at its fields; nothing is applied then.
 */
export function usePlannedChange(options: PlannedChangeOptions) {
  const queryClient = useQueryClient()
  const [run, setRun] = useState<Run<ChangeResult> | null>(null)
  const [plan, setPlan] = useState<ChangeResult | null>(null)
  const [error, setError] = useState<unknown>(null)
  const [busy, setBusy] = useState(false)
  const [acceptLoss, setAcceptLoss] = useState(false)

  const close = () => {
    setPlan(null)
    setRun(null)
    setAcceptLoss(false)
  }

  async function start(next: Run<ChangeResult>) {
    setError(null)
    setBusy(true)
    try {
      const result = await next({ dryRun: true })
      setRun(() => next)
      setPlan(result)
    } catch (e) {
      setError(e)
      if (!(e instanceof ApiError && e.status === 422)) toast.error(errorText(e))
    } finally {
      setBusy(false)
    }
  }

  async function apply() {
    if (!run || !plan) return
    setBusy(true)
    try {
      const needsLoss = plan.risks.some((r) => r.overridable)
      const result = await run({ allowDataLoss: needsLoss && acceptLoss })
      close()
      await queryClient.invalidateQueries({ queryKey: ['admin'] })
      for (const key of options.invalidate ?? []) await queryClient.invalidateQueries({ queryKey: key })
      toast.success(
        result.status === 'unchanged' ? 'Nothing changed' : (options.success ?? 'Change applied'),
        { description: result.status === 'applied' ? `Definition version ${result.definitionVersion}` : undefined }
      )
      options.onApplied?.(result)
    } catch (e) {
      setError(e)
      const risks = risksOf(e)
      if (risks.length) setPlan({ ...plan, risks })
      else close()
      toast.error(
        e instanceof ApiError && e.status === 412
          ? 'Someone else changed the definition meanwhile. Reload to see their change, then try again.'
          : errorText(e)
      )
    } finally {
      setBusy(false)
    }
  }

  const risks = plan?.risks ?? []
  const blocked = risks.some((r) => !r.overridable)
  const needsTick = risks.some((r) => r.overridable)
  const nothing = plan !== null && plan.changes.length === 0 && plan.steps.length === 0

  const dialog: ReactNode = (
    <Dialog
      open={plan !== null}
      onClose={close}
      title={`Plan: ${options.title}`}
      wide
      testId="plan-dialog"
      actions={
        <>
          <button type="button" className="btn" onClick={close} data-testid="plan-cancel">
            Cancel
          </button>
          <button
            type="button"
            className={needsTick ? 'btn btn--danger' : 'btn btn--primary'}
            disabled={busy || blocked || nothing || (needsTick && !acceptLoss)}
            onClick={() => void apply()}
            data-testid="plan-apply"
          >
            {busy ? 'Applying…' : 'Apply'}
          </button>
        </>
      }
    >
      {plan && <PlanView result={plan} />}
      {needsTick && !blocked && (
        <label className="check plan__accept">
          <input
            type="checkbox"
            checked={acceptLoss}
            onChange={(e) => setAcceptLoss(e.target.checked)}
            data-testid="plan-accept-loss"
          />
          I understand that this data will be lost.
        </label>
      )}
      {busy && plan && <div className="progress" role="progressbar" aria-label="Applying the change" />}
    </Dialog>
  )

  return { start, dialog, error, busy, clearError: () => setError(null) }
}
