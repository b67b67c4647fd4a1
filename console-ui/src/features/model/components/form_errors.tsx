/*
 * Server problems (422) in forms: the error at a key and below it, and the problems that point at
 * no field of the form.
 */
/** The error at `key` or below it (`caption.de`, `caption['de']`). */
export const errorAt = (errors: Record<string, string>, key: string) =>
  Object.entries(errors)
    .filter(([k]) => k === key || k.startsWith(`${key}.`) || k.startsWith(`${key}[`))
    .map(([, m]) => m)
    .join('; ') || undefined

const FIELD_KEYS = new Set([
  'name',
  'type',
  'length',
  'precision',
  'scale',
  'min',
  'max',
  'pattern',
  'enum',
  'mandatory',
  'unique',
  'readOnly',
  'transient',
  'caption',
  'description',
  'target',
  'cardinality',
  'mappedBy',
  'linkTable',
  'onDelete',
])

/** Problems that point at no field of the form (the whole attribute, or elements that use it). */
export function OtherErrors({
  errors,
  known = FIELD_KEYS,
}: {
  errors: Record<string, string>
  known?: Set<string>
}) {
  const other = Object.entries(errors).filter(([key]) => !known.has(key.split(/[.[]/)[0] ?? ''))
  if (other.length === 0) return null
  return (
    <div className="error" role="alert" data-testid="form-error">
      {other.map(([key, message]) => (
        <div key={key}>
          {key && <code>{key}</code>} {message}
        </div>
      ))}
    </div>
  )
}
