/**
 * Query strings as browser HTTP clients build them: axios (`buildURL`) encodes a value with
 * encodeURIComponent, then puts `,` `:` `$` `[` `]` back raw and a space as `+`.
 */
export const axiosValue = (value: unknown) =>
  encodeURIComponent(typeof value === 'string' ? value : JSON.stringify(value))
    .replace(/%2C/gi, ',')
    .replace(/%3A/gi, ':')
    .replace(/%24/g, '$')
    .replace(/%5B/gi, '[')
    .replace(/%5D/gi, ']')
    .replace(/%20/g, '+')

/** `k=v&...` with the values encoded as axios encodes them (objects as JSON). */
export const axiosQuery = (params: Record<string, unknown>) =>
  Object.entries(params)
    .map(([k, v]) => `${k}=${axiosValue(v)}`)
    .join('&')
