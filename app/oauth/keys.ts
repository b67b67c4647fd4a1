/**
 * Signing keys of self-contained (JWT) access tokens. One RSA key is generated on first use and
 * stored with its private part encrypted by APP_KEY; its public part is published at
 * /oauth2/jwks. Reference tokens need no key.
 */
import { randomUUID } from 'node:crypto'
import { exportJWK, generateKeyPair, importJWK, SignJWT, type JWK } from 'jose'
import db from '@adonisjs/lucid/services/db'
import encryption from '@adonisjs/core/services/encryption'

interface SigningKey {
  kid: string
  privateKey: Awaited<ReturnType<typeof importJWK>>
  publicJwk: JWK
}

let current: Promise<SigningKey> | null = null

async function loadOrCreate(): Promise<SigningKey> {
  const row = await db.from('oauth_keys').orderBy('created_at', 'desc').first()
  if (row) {
    const privateJwk = encryption.decrypt<JWK>(row.private_jwk_encrypted)
    if (!privateJwk)
      throw new Error('oauth_keys: cannot decrypt the signing key (was APP_KEY changed?)')
    return {
      kid: row.kid,
      privateKey: await importJWK(privateJwk, 'RS256'),
      publicJwk: JSON.parse(row.public_jwk),
    }
  }
  const { publicKey, privateKey } = await generateKeyPair('RS256', { extractable: true })
  const kid = randomUUID()
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' }
  await db.table('oauth_keys').insert({
    kid,
    algorithm: 'RS256',
    public_jwk: JSON.stringify(publicJwk),
    private_jwk_encrypted: encryption.encrypt(await exportJWK(privateKey)),
    created_at: new Date(),
  })
  return { kid, privateKey, publicJwk }
}

function signingKey() {
  current ??= loadOrCreate().catch((error) => {
    current = null
    throw error
  })
  return current
}

export async function publicKeys(): Promise<{ keys: JWK[] }> {
  const rows = await db.from('oauth_keys').select('public_jwk')
  return { keys: rows.map((r) => JSON.parse(r.public_jwk)) }
}

export async function signAccessToken(claims: {
  issuer: string
  subject: string
  clientId: string
  scope: string | null
  ttlSeconds: number
}): Promise<string> {
  const key = await signingKey()
  const jwt = new SignJWT({
    client_id: claims.clientId,
    ...(claims.scope ? { scope: claims.scope } : {}),
  })
    .setProtectedHeader({ alg: 'RS256', kid: key.kid, typ: 'at+jwt' })
    .setIssuer(claims.issuer)
    .setSubject(claims.subject)
    .setAudience(claims.clientId)
    .setIssuedAt()
    .setNotBefore('0s')
    .setJti(randomUUID())
    .setExpirationTime(`${claims.ttlSeconds}s`)
  return jwt.sign(key.privateKey)
}

/** Tests wipe the database: forget the cached key. */
export function forgetSigningKey() {
  current = null
}
