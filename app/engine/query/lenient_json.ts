/**
 * JSON text read leniently, as upstream's Gson does (unquoted keys, single quotes, comments):
 * strict JSON first (the common case, several times faster), JSON5 when that fails. Throws
 * JSON5's error when the text is neither.
 */
import JSON5 from 'json5'

export function parseLenientJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return JSON5.parse(text)
  }
}
