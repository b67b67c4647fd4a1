/** A timestamp in the admin's locale, to the second. */
export const when = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' })

/** Section keys of the definition document, as an admin reads them. */
export const SECTION_LABELS: Record<string, string> = {
  entities: 'Entities',
  enums: 'Enums',
  fetchPlans: 'Fetch plans',
  resourceRoles: 'Resource roles',
  rowLevelRoles: 'Row-level roles',
  users: 'Users',
  clients: 'OAuth clients',
  settings: 'Settings',
  messages: 'Translations',
}

export const sectionLabel = (key: string) => SECTION_LABELS[key] ?? key
