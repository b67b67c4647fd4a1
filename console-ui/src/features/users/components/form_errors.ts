/**
 * Errors of a list field from `fieldErrors()` keys: `resourceRoles[1]` → item 1,
 * `resourceRoles` → the whole list (deeper paths such as `redirectUris[0].x` count as the item).
 */
export function listErrors(
  errors: Record<string, string>,
  key: string
): { items: Record<number, string>; error?: string } {
  const items: Record<number, string> = {}
  let error: string | undefined
  for (const [path, message] of Object.entries(errors)) {
    if (path === key) error = message
    const match = new RegExp(`^${key.replace(/[.$]/g, '\\$&')}\\[(\\d+)\\]`).exec(path)
    if (match) {
      const i = Number(match[1])
      items[i] = items[i] ? `${items[i]}; ${message}` : message
    }
  }
  return { items, error }
}

/** Errors no field of the form shows (the form prints them at its top). */
export function otherErrors(errors: Record<string, string>, shown: string[]): string[] {
  return Object.entries(errors)
    .filter(
      ([path]) =>
        !shown.some(
          (key) => path === key || path.startsWith(`${key}[`) || path.startsWith(`${key}.`)
        )
    )
    .map(([path, message]) => (path ? `${path}: ${message}` : message))
}
