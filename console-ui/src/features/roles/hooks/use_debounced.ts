import { useEffect, useState } from 'react'

/** `value`, once it has not changed for `delay` ms (compared as JSON: objects are rebuilt on every render). */
export function useDebounced<T>(value: T, delay = 400): T {
  const [settled, setSettled] = useState(value)
  const text = JSON.stringify(value)
  useEffect(() => {
    const timer = setTimeout(() => setSettled(JSON.parse(text) as T), delay)
    return () => clearTimeout(timer)
  }, [text, delay])
  return settled
}
