import { useState } from 'react'
import { useQueryClient } from '@tanstack/react-query'
import { toast } from 'sonner'
import { ApiError } from '../../../lib/api'
import { errorText, problemsOf } from '../../../lib/admin'
import { removeSetting, storeSetting, type SettingChange, type SettingValue } from './settings'

/**
 * Store or remove one setting (a plain change: no plan to show), with If-Match at the version the
 * page was read at. A 422 stays in `error` for the form (the message at `$.value`); 412 and other
 * failures are toasts. Every success invalidates the admin data.
 */
export function useSettingChange(name: string, version: number | null) {
  const queryClient = useQueryClient()
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)

  async function run(call: () => Promise<SettingChange>, success: string): Promise<boolean> {
    setBusy(true)
    setError(null)
    try {
      const result = await call()
      toast.success(result.status === 'unchanged' ? 'Nothing changed' : success, {
        description: result.status === 'applied' ? 'In effect from the next request' : undefined,
      })
      await queryClient.invalidateQueries({ queryKey: ['admin'] })
      return true
    } catch (e) {
      if (e instanceof ApiError && e.status === 422) {
        const problems = problemsOf(e)
        // The resolver names the property in front of its message; the form already shows it.
        const message = problems.map((p) => p.message.replace(`${name}: `, '')).join('; ')
        setError(message || errorText(e))
      } else if (e instanceof ApiError && e.status === 412) {
        toast.error('Someone else changed the settings meanwhile. The page now shows their change; try again.')
        await queryClient.invalidateQueries({ queryKey: ['admin'] })
      } else toast.error(errorText(e))
      return false
    } finally {
      setBusy(false)
    }
  }

  return {
    busy,
    error,
    clearError: () => setError(null),
    store: (value: SettingValue) => run(() => storeSetting(name, value, version), `${name} saved`),
    remove: () => run(() => removeSetting(name, version), `Stored value of ${name} removed`),
  }
}
