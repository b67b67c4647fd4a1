/**
 * Change counters in mg_versions, shared by every wing: each one bumps its own key inside the
 * transaction that changes its rows, and every instance's change watcher (./watcher.ts) reloads
 * what depends on a key when it moves. On PostgreSQL a bump also NOTIFYs `mg_changes`, which
 * the watchers LISTEN on (delivered at commit, never before).
 *
 * - `model`: entities, enums, fetch plans (app/engine);
 * - `settings`: stored svc.* properties (app/settings);
 * - `security`: revocations, deactivations, secret and password changes (app/oauth);
 * - `roles`: roles and role assignments (app/security);
 * - `messages`: stored translations (app/i18n);
 * - `definition`: the application definition as a whole, bumped once by every applied change
 *   of it (app/definition); the admin API's ETag.
 */
import type { QueryClientContract, TransactionClientContract } from '@adonisjs/lucid/types/database'

export type VersionKey = 'model' | 'settings' | 'security' | 'messages' | 'roles' | 'definition'

export async function readVersion(client: QueryClientContract, key: VersionKey): Promise<number> {
  const row = await client.from('mg_versions').where('key', key).select('version').first()
  return row ? Number(row.version) : 0
}

export async function bumpVersion(
  trx: TransactionClientContract,
  key: VersionKey
): Promise<number> {
  // The UPDATE takes the row lock: concurrent changes of one key serialize here.
  await trx.rawQuery('update mg_versions set version = version + 1, updated_at = ? where key = ?', [
    new Date(),
    key,
  ])
  if (trx.dialect.name === 'postgres') {
    await trx.rawQuery(`select pg_notify('mg_changes', ?)`, [key])
  }
  return readVersion(trx, key)
}
