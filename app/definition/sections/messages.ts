/**
 * `messages` (app/i18n/definition.ts): stored translations per locale, checked against the model
 * as the change leaves it. Planned and written also when the document has no such section:
 * translations follow renamed and removed model elements.
 */
import vine from '@vinejs/vine'
import {
  checkMessages,
  describeMessagesChanges,
  exportMessages,
  writeMessages,
} from '#i18n/definition'
import type { DefinitionSection } from '../section.js'

export const messagesSection: DefinitionSection = {
  name: 'messages',
  // locale -> key -> text (null removes a stored translation).
  keys: { messages: { schema: vine.record(vine.record(vine.string().nullable())) } },

  async plan(ctx) {
    const { definition, renames } = ctx.model!
    const section = ctx.document.messages
    const prune = ctx.pruned('messages')
    const problems = checkMessages(section, definition)
    return {
      problems,
      changes: problems.length
        ? []
        : await describeMessagesChanges(ctx.trx, section, prune, definition, renames),
      apply: async (trx) => ({
        changed: await writeMessages(trx, section, prune, definition, renames),
      }),
    }
  },

  async export(client) {
    const messages = await exportMessages(client)
    return messages ? { messages } : {}
  },
}
