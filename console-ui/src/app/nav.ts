/** The console's navigation: one entry per page, grouped as in the side bar. */
export interface NavEntry {
  to: string
  label: string
  group: 'Application' | 'Access' | 'System'
  /** One-line explanation (tooltip and the overview's tiles). */
  hint: string
}

export const nav: NavEntry[] = [
  { to: '/', label: 'Overview', group: 'Application', hint: 'Server, model and counts at a glance' },
  { to: '/model', label: 'Data model', group: 'Application', hint: 'Entities, attributes, enums and fetch plans' },
  { to: '/er', label: 'ER diagram', group: 'Application', hint: 'The whole model as a diagram' },
  { to: '/data', label: 'Data', group: 'Application', hint: 'Browse and edit rows through the REST API' },
  { to: '/queries', label: 'Queries', group: 'Application', hint: 'Named queries served at /rest/queries' },
  { to: '/reports', label: 'Reports', group: 'Application', hint: 'Documents from bands of data, served at /rest/reports' },
  { to: '/roles', label: 'Roles', group: 'Access', hint: 'Resource roles: what each role may do' },
  { to: '/row-level-roles', label: 'Row-level roles', group: 'Access', hint: 'Which rows each role may see' },
  { to: '/permissions', label: 'Effective permissions', group: 'Access', hint: 'What a user or client can do, and why' },
  { to: '/users', label: 'Users', group: 'Access', hint: 'Accounts, passwords and role assignments' },
  { to: '/clients', label: 'OAuth clients', group: 'Access', hint: 'Applications that obtain tokens' },
  { to: '/settings', label: 'Settings', group: 'System', hint: 'svc.* properties and URL patterns' },
  { to: '/translations', label: 'Translations', group: 'System', hint: 'Captions per locale' },
  { to: '/import-export', label: 'Import/export', group: 'System', hint: 'The application definition as a file' },
  { to: '/history', label: 'History', group: 'System', hint: 'Schema changelog and audit trail' },
  { to: '/api-docs', label: 'API reference', group: 'System', hint: 'The REST API as OpenAPI, with try it' },
]

export const navGroups = ['Application', 'Access', 'System'] as const
