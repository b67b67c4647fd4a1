/**
 * The section registry: one line per section, in planning order (a section may use what an
 * earlier one put in the plan context: the model first, roles before clients and users).
 */
import type { DefinitionSection } from '../section.js'
import { modelSection } from './model.js'
import { settingsSection } from './settings.js'
import { clientsSection } from './clients.js'
import { rolesSection } from './roles.js'
import { usersSection } from './users.js'
import { messagesSection } from './messages.js'
import { queriesSection } from './queries.js'
import { reportsSection } from './reports.js'

export const SECTIONS: readonly DefinitionSection[] = [
  modelSection,
  settingsSection,
  rolesSection,
  clientsSection,
  usersSection,
  messagesSection,
  queriesSection,
  reportsSection,
]

/** Document keys of capabilities not built yet: refused with a message naming the section. */
export const UNSUPPORTED_SECTIONS: string[] = []

/** The section that reads document key `key`. */
export function sectionOfKey(key: string): DefinitionSection | undefined {
  return SECTIONS.find((s) => key in s.keys)
}
