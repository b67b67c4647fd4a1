/**
 * `settings`: stored svc.* properties (app/settings), `{ "<name>": value | null }`; null removes a
 * stored value. Unknown names and values the property's type refuses are problems; a client
 * secret is never stored in clear.
 */
import vine from '@vinejs/vine'
import { describeSettingsChanges, writeSettings } from '#settings/property_resolver'
import { CLIENT_SECRET_PROPERTY, coerce, findProperty } from '#settings/properties'
import type { DefinitionSection, Problem } from '../section.js'

export function checkSettings(settings: Record<string, unknown>): Problem[] {
  const problems: Problem[] = []
  for (const [key, value] of Object.entries(settings)) {
    const path = `$.settings['${key}']`
    const definition = findProperty(key)
    if (!definition) problems.push({ path, message: `unknown property '${key}'` })
    else if (
      CLIENT_SECRET_PROPERTY.test(key) &&
      value !== null &&
      !/^\{sha256\}/.test(String(value))
    )
      problems.push({
        path,
        message: `a client secret is not stored in clear: use the clients section (clientSecret is stored hashed), the environment, or '{sha256}<hex digest>'`,
      })
    else if (value !== null) {
      try {
        coerce(definition, value)
      } catch (error) {
        problems.push({ path, message: (error as Error).message })
      }
    }
  }
  return problems
}

export const settingsSection: DefinitionSection = {
  name: 'settings',
  // null removes a stored setting (writeSettings); vine.any() alone rejects null.
  keys: { settings: { schema: vine.record(vine.any().nullable()) } },

  async plan({ document, trx }) {
    const problems = checkSettings(document.settings)
    return {
      problems,
      changes: problems.length ? [] : await describeSettingsChanges(trx, document.settings),
      apply: async (t) => ({ changed: await writeSettings(t, document.settings) }),
    }
  },

  async export(client) {
    const rows = await client.from('mg_settings').select('key', 'value').orderBy('key')
    if (rows.length === 0) return {}
    return { settings: Object.fromEntries(rows.map((r) => [r.key, JSON.parse(r.value)])) }
  },
}
