/*
 * What the benchmark scripts share: waiting for the API server to answer /health, a
 * client-credentials token, and the import of a definition document into the scratch database.
 */
import { spawnSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'

/** Resolves once `${base}/health` answers 200 (30 s at most). */
export async function waitForServer(base) {
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${base}/health`)).ok) return
    } catch {}
    if (i > 300) throw new Error('server did not start')
    await new Promise((r) => setTimeout(r, 100))
  }
}

/** An access token of a confidential client (client_secret_basic, client_credentials). */
export async function clientToken(base, clientId, secret) {
  const response = await fetch(`${base}/oauth2/token`, {
    method: 'POST',
    headers: {
      'authorization': `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: 'grant_type=client_credentials',
  })
  const body = await response.json()
  if (!body.access_token) throw new Error(`no token for ${clientId}: ${response.status}`)
  return body.access_token
}

/** `node ace app:import` of `doc` (written to `file`) with the server's environment. */
export function importDefinition(doc, file, env) {
  writeFileSync(file, JSON.stringify(doc))
  const imported = spawnSync(process.execPath, ['ace.js', 'app:import', file], { env })
  if (imported.status !== 0) throw new Error(`import failed: ${imported.stdout}${imported.stderr}`)
}
