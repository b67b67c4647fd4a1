/*
 * The change lines of a plan (`entity bookstore_Book: attribute title changed, attribute subtitle
 * added`, `resource role reader: created`, `client portal: deleted (prune)`) grouped by section
 * and element, each element marked added / changed / removed.
 */

export type ElementChangeKind = 'added' | 'changed' | 'removed'

export interface PlannedElement {
  /** The document key (entities, enums, fetchPlans, resourceRoles, …; 'other' when unknown). */
  section: string
  element: string
  change: ElementChangeKind
  /** The parts of the line after the element (`attribute subtitle added`), each classified. */
  details: { text: string; change: ElementChangeKind }[]
  line: string
}

export interface PlannedSection {
  section: string
  label: string
  elements: PlannedElement[]
}

/** Line prefixes of the server's sections (app/engine/metadata/diff.ts and the section modules). */
const KINDS: [prefix: string, section: string, label: string][] = [
  ['row-level role', 'rowLevelRoles', 'Row-level roles'],
  ['resource role', 'resourceRoles', 'Resource roles'],
  ['fetchPlan', 'fetchPlans', 'Fetch plans'],
  ['entity', 'entities', 'Entities'],
  ['enum', 'enums', 'Enums'],
  ['client', 'clients', 'OAuth clients'],
  ['user', 'users', 'Users'],
  ['setting', 'settings', 'Settings'],
  ['messages', 'messages', 'Translations'],
]

const ORDER = [...KINDS.map(([, section]) => section), 'other']
const LABELS: Record<string, string> = Object.fromEntries([...KINDS.map(([, s, l]) => [s, l]), ['other', 'Other']])

/** What happened to a whole element: `added`, `created (…)`, `set` / `removed`, `deleted (prune)`. */
function wholeChange(what: string): ElementChangeKind {
  const t = what.trim().toLowerCase()
  if (/^(added|created|set)\b/.test(t)) return 'added'
  if (/^(removed|deleted)\b/.test(t)) return 'removed'
  return 'changed'
}

/** One detail of a changed element: `attribute subtitle added`, `3 removed`. */
export function classify(text: string): ElementChangeKind {
  const t = text.trim().toLowerCase()
  if (/\b(added|created|set)$/.test(t)) return 'added'
  if (/\b(removed|deleted)$/.test(t)) return 'removed'
  return 'changed'
}

export function parseChangeLine(line: string): PlannedElement {
  for (const [prefix, section] of KINDS) {
    if (!line.startsWith(prefix + ' ')) continue
    const rest = line.slice(prefix.length + 1)
    const colon = rest.indexOf(': ')
    if (colon < 0) continue
    const what = rest.slice(colon + 2)
    const change = wholeChange(what)
    let details: PlannedElement['details'] = []
    if (change === 'changed' && what !== 'changed')
      details = what.startsWith('changed ')
        ? [{ text: what, change: 'changed' }]
        : what.split(', ').map((text) => ({ text, change: classify(text) }))
    return { section, element: rest.slice(0, colon), change, details, line }
  }
  return { section: 'other', element: line, change: wholeChange(line), details: [], line }
}

/** The plan's lines grouped by section, in the document's order. */
export function groupChanges(lines: string[]): PlannedSection[] {
  const sections = new Map<string, PlannedElement[]>()
  for (const line of lines) {
    const parsed = parseChangeLine(line)
    sections.set(parsed.section, [...(sections.get(parsed.section) ?? []), parsed])
  }
  return ORDER.filter((s) => sections.has(s)).map((section) => ({
    section,
    label: LABELS[section] ?? section,
    elements: sections.get(section) ?? [],
  }))
}

export function countChanges(sections: PlannedSection[]): Record<ElementChangeKind, number> {
  const out = { added: 0, changed: 0, removed: 0 }
  for (const s of sections) for (const e of s.elements) out[e.change]++
  return out
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/** An element of a definition document by section and name (for its before/after). */
export function findElement(doc: unknown, section: string, element: string): unknown {
  if (!isObject(doc)) return undefined
  const value = doc[section]
  if (section === 'settings' && isObject(value)) return value[element]
  if (section === 'messages' && isObject(value)) return value[element]
  if (!Array.isArray(value)) return undefined
  return value.find((item) => {
    if (!isObject(item)) return false
    if (section === 'fetchPlans') return `${String(item.entity)}/${String(item.name)}` === element
    const name = item.name ?? item.code ?? item.username ?? item.clientId
    return name === element
  })
}
