/**
 * Shared by the admin model specs: a small model (a note, a task pointing at it, an enum, a
 * fetch plan) applied through the admin API itself, and readers of the audit trail.
 */
import db from '@adonisjs/lucid/services/db'
import { listTables } from '#engine/main'
import { admin, type Reply } from '#tests/helpers/admin'

export const NOTE = {
  name: 'adm_Note',
  attributes: [
    { name: 'title', type: 'string', length: 80, mandatory: true },
    { name: 'body', type: 'text' },
    { name: 'priority', type: 'int' },
  ],
}

export const TASK = {
  name: 'adm_Task',
  instanceName: 'label',
  attributes: [
    { name: 'label', type: 'string', length: 40 },
    { name: 'note', type: 'association', target: 'adm_Note', cardinality: 'MANY_TO_ONE' },
  ],
}

export const STATUS = {
  name: 'adm.Status',
  values: [
    { name: 'OPEN', id: 'O' },
    { name: 'DONE', id: 'D' },
  ],
}

export const PLAN = { entity: 'adm_Note', name: 'note-brief', properties: ['title', 'priority'] }

export const NOTE_ID = '00000000-0000-4000-8000-000000000001'

/** Applies a reply-checked request (fails loudly with the body when it does not succeed). */
export async function ok(reply: Promise<Reply>, status = 200): Promise<Reply> {
  const r = await reply
  if (r.status !== status) throw new Error(`expected ${status}, got ${r.status}: ${r.text}`)
  return r
}

/** Note and task through the admin API, one note row with a body. */
export async function noteAndTask(withRow = true) {
  await ok(admin('admin', 'POST', 'entities', NOTE), 201)
  await ok(admin('admin', 'POST', 'entities', TASK), 201)
  if (withRow) await db.table('adm_note').insert({ id: NOTE_ID, title: 'first', body: 'keep me' })
}

export const tables = async () => new Set(await listTables(db.connection()))

export const auditCount = async () => Number((await db.from('mg_audit').count('* as n'))[0].n)

/** `section:element:change` of the newest audit entry, with the total count of entries. */
export async function lastAudit() {
  const entry = await db.from('mg_audit').orderBy('id', 'desc').first()
  const rows = await db.from('mg_audit_elements').where('audit_id', entry.id)
  const diff: { section: string; element: string; change: string }[] = JSON.parse(entry.diff)
  return {
    author: entry.author as string,
    count: await auditCount(),
    /** The indexed elements (what the audit filter finds). */
    elements: rows.map((e) => `${e.section}:${e.element}`).sort(),
    /** The before/after diff, as `section:element:change`. */
    diff: diff.map((e) => `${e.section}:${e.element}:${e.change}`).sort(),
  }
}

export const paths = (reply: Reply) => (reply.body?.problems ?? []).map((p: any) => p.path)
