/**
 * What a download is served as: Content-Type from the extension of the STORAGE KEY (chosen by
 * the server at upload), never from the `name` in the fileRef (catalogue FL13, Jmix
 * CVE-2025-32951), and inline only for harmless types the operator listed. Pure.
 */

/** Types served as what they are. Anything else (HTML, SVG, XML, scripts, ...) is opaque bytes. */
const TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  bmp: 'image/bmp',
  tif: 'image/tiff',
  tiff: 'image/tiff',
  pdf: 'application/pdf',
  txt: 'text/plain; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  json: 'application/json',
  zip: 'application/zip',
  gz: 'application/gzip',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  ogg: 'audio/ogg',
  mp4: 'video/mp4',
  webm: 'video/webm',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xls: 'application/vnd.ms-excel',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  ppt: 'application/vnd.ms-powerpoint',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  odt: 'application/vnd.oasis.opendocument.text',
  ods: 'application/vnd.oasis.opendocument.spreadsheet',
  rtf: 'application/rtf',
}

export const OPAQUE = 'application/octet-stream'

/** Extensions never served inline, whatever `svc.rest.inline-enabled-file-extensions` says. */
export const NEVER_INLINE = new Set([
  'html',
  'htm',
  'xhtml',
  'xht',
  'shtml',
  'svg',
  'svgz',
  'xml',
  'xsl',
  'xslt',
  'js',
  'mjs',
  'css',
])

export function contentTypeOf(extension: string): string {
  return Object.hasOwn(TYPES, extension) ? TYPES[extension] : OPAQUE
}

/** Inline only when asked, listed, of a known harmless type, and never HTML/SVG-like. */
export function isInline(extension: string, attachment: boolean, inlineList: string[]) {
  if (attachment || !extension || NEVER_INLINE.has(extension)) return false
  if (contentTypeOf(extension) === OPAQUE) return false
  return inlineList.some((e) => e.trim().toLowerCase().replace(/^\./, '') === extension)
}

/** RFC 5987 value: UTF-8 percent-encoding of everything but attr-chars. */
function extValue(name: string): string {
  return encodeURIComponent(name.toWellFormed()).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`
  )
}

/** The quoted ASCII fallback: anything outside a safe set becomes `_` (no `"`, `\`, CR, LF). */
function asciiFallback(name: string): string {
  const safe = name.replace(/[^A-Za-z0-9.\-_ ()+,]/g, '_').trim()
  return safe === '' || /^\.+$/.test(safe) ? 'file' : safe
}

/** `Content-Disposition` per RFC 6266 with the RFC 5987 `filename*`. */
export function contentDisposition(inline: boolean, name: string): string {
  const type = inline ? 'inline' : 'attachment'
  return `${type}; filename="${asciiFallback(name)}"; filename*=UTF-8''${extValue(name)}`
}
