/** Byte sizes as properties write them: `20MB`, `512KB`, `1GB`, `1048576` (binary units). Pure. */
const UNITS: Record<string, number> = { B: 1, KB: 1024, MB: 1024 ** 2, GB: 1024 ** 3 }

/** Bytes of a size text; NaN when it is not one. */
export function parseSize(text: unknown): number {
  const m =
    typeof text === 'number'
      ? [String(text), String(text), 'B']
      : typeof text === 'string'
        ? /^\s*(\d{1,15})\s*(B|KB|MB|GB)?\s*$/i.exec(text)
        : null
  if (!m) return Number.NaN
  const bytes = Number(m[1]) * UNITS[(m[2] ?? 'B').toUpperCase()]
  return Number.isSafeInteger(bytes) && bytes > 0 ? bytes : Number.NaN
}
