/**
 * Application users: creation, password changes, deactivation, deletion, and the built-in
 * accounts made on first start (`admin`, `anonymous`). Passwords are scrypt hashes (the User
 * model hashes on save). Deactivating, deleting or changing the password of a user stops the
 * tokens issued to that user at once: `tokens_valid_after` is set, the 'security' version is
 * bumped (every instance drops its cached verifications) and this instance's cache is cleared
 * when the transaction commits.
 *
 * Role assignment: in its own tables, one row per user and role code
 * (`mg_user_resource_roles(user_id, role_code)`, `mg_user_row_level_roles`), written by the
 * `users` section of the definition document (app/oauth/user_definitions.ts, storage in
 * app/security/roles_store.ts), by createUserWithRoles() (`user:create --resource-roles`) and by
 * the admin API. createUser() itself takes no roles: giving it `UserInput.resourceRoles` /
 * `rowLevelRoles` is refused rather than silently ignored.
 */
import db from '@adonisjs/lucid/services/db'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import User from '#models/user'
import { randomToken } from './secrets.js'
import { rolesChanged, setUserRoles } from '#security/roles_store'
import { run, securityChanged } from './clients.js'
import type { Problem } from './client_rules.js'

export const ADMIN_USERNAME = 'admin'
/** The built-in user of requests matched by an anonymous URL pattern; it has no password. */
export const ANONYMOUS_USERNAME = 'anonymous'
export const MIN_PASSWORD_LENGTH = 8
const MAX_PASSWORD_LENGTH = 1024

export interface UserInput {
  username: string
  password?: string
  firstName?: string | null
  lastName?: string | null
  email?: string | null
  locale?: string | null
  timeZone?: string | null
  active?: boolean
  /** Reserved for the security issue (role assignment); refused until it exists. */
  resourceRoles?: string[]
  rowLevelRoles?: string[]
}

export class AccountError extends Error {
  constructor(readonly problems: Problem[]) {
    super(problems.map((p) => `${p.path}: ${p.message}`).join('; '))
  }
}

const USERNAME = /^[\w.@+-]{1,100}$/
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/
const LOCALE = /^[A-Za-z]{2,3}([_-][A-Za-z0-9]{2,8})*$/

function validTimeZone(zone: string) {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone })
    return true
  } catch {
    return false
  }
}

export function passwordProblem(password: unknown): string | null {
  if (typeof password !== 'string' || password.length < MIN_PASSWORD_LENGTH)
    return `must be at least ${MIN_PASSWORD_LENGTH} characters`
  if (password.length > MAX_PASSWORD_LENGTH)
    return `must be at most ${MAX_PASSWORD_LENGTH} characters`
  return null
}

/** Problems of a new user's fields (paths are the field names). */
export function checkUser(input: UserInput): Problem[] {
  const out: Problem[] = []
  const report = (path: string, message: string) => out.push({ path, message })
  if (typeof input.username !== 'string' || !USERNAME.test(input.username))
    report('username', 'must be 1 to 100 letters, digits or . _ @ + -')
  else if (input.username.toLowerCase() === ANONYMOUS_USERNAME)
    report('username', `'${ANONYMOUS_USERNAME}' is the built-in anonymous user`)
  const password = passwordProblem(input.password)
  if (password) report('password', password)
  if (input.email && !EMAIL.test(input.email))
    report('email', `'${input.email}' is not an e-mail address`)
  if (input.locale && !LOCALE.test(input.locale))
    report('locale', `'${input.locale}' is not a locale (en, de-CH)`)
  if (input.timeZone && !validTimeZone(input.timeZone))
    report('timeZone', `'${input.timeZone}' is not a time zone (Europe/Berlin, UTC)`)
  for (const field of ['resourceRoles', 'rowLevelRoles'] as const) {
    if (input[field]?.length) report(field, 'createUser takes no roles: use createUserWithRoles')
  }
  for (const field of ['firstName', 'lastName'] as const) {
    if ((input[field]?.length ?? 0) > 100) report(field, 'must be at most 100 characters')
  }
  return out
}

/** A random password for generated accounts: 24 base64url characters (144 bits). */
export function generatePassword() {
  return randomToken(18)
}

export function findUser(username: string, trx?: TransactionClientContract) {
  return User.query({ client: trx ?? db.connection() })
    .where('username', username)
    .first()
}

async function requireUser(username: string, trx: TransactionClientContract) {
  const user = await findUser(username, trx)
  if (!user) throw new AccountError([{ path: 'username', message: `no user '${username}'` }])
  return user
}

export async function createUser(input: UserInput, trx?: TransactionClientContract) {
  const problems = checkUser(input)
  if (!problems.length && (await findUser(input.username, trx)))
    problems.push({ path: 'username', message: `user '${input.username}' already exists` })
  if (problems.length) throw new AccountError(problems)
  const user = new User()
  if (trx) user.useTransaction(trx)
  user.merge({
    username: input.username,
    password: input.password!,
    firstName: input.firstName || null,
    lastName: input.lastName || null,
    email: input.email || null,
    locale: input.locale || null,
    timeZone: input.timeZone || null,
    active: input.active ?? true,
  })
  await user.save()
  return user
}

/** `createUser` with the user's role codes, in one transaction (roles version bumped). */
export function createUserWithRoles(
  input: UserInput,
  roles: { resourceRoles: string[]; rowLevelRoles: string[] }
) {
  return db.transaction(async (trx) => {
    const user = await createUser(input, trx)
    await setUserRoles(trx, user.id, 'resourceRoles', roles.resourceRoles)
    await setUserRoles(trx, user.id, 'rowLevelRoles', roles.rowLevelRoles)
    await rolesChanged(trx)
    return user
  })
}

/** A new password (scrypt-hashed); tokens issued before stop at once. */
export async function changePassword(
  username: string,
  password: string,
  trx?: TransactionClientContract
) {
  if (username === ANONYMOUS_USERNAME)
    throw new AccountError([{ path: 'username', message: 'the anonymous user has no password' }])
  const problem = passwordProblem(password)
  if (problem) throw new AccountError([{ path: 'password', message: problem }])
  await run(trx, async (t) => {
    const user = await requireUser(username, t)
    user.useTransaction(t)
    user.merge({ password, tokensValidAfter: new Date() })
    await user.save()
    await securityChanged(t)
  })
}

/** Deactivation stops the user's tokens at once; reactivation does not revive them. */
export async function setUserActive(
  username: string,
  active: boolean,
  trx?: TransactionClientContract
) {
  return run(trx, async (t) => {
    const user = await requireUser(username, t)
    if (user.active === active) return false
    user.useTransaction(t)
    user.merge(active ? { active } : { active, tokensValidAfter: new Date() })
    await user.save()
    await securityChanged(t)
    return true
  })
}

/** Deletes a user with its tokens and authorization codes (not `anonymous`). */
export async function deleteUser(username: string, trx?: TransactionClientContract) {
  if (username === ANONYMOUS_USERNAME)
    throw new AccountError([{ path: 'username', message: 'the anonymous user cannot be deleted' }])
  await run(trx, async (t) => {
    const user = await requireUser(username, t)
    await t.from('oauth_codes').where('user_id', user.id).delete()
    await t.from('oauth_tokens').where('user_id', user.id).delete()
    for (const table of ['mg_user_resource_roles', 'mg_user_row_level_roles'])
      await t.from(table).where('user_id', user.id).delete()
    await t.from('users').where('id', user.id).delete()
    await securityChanged(t)
  })
}

/**
 * Creates a built-in user unless it exists. Instances starting together on one database may
 * race: when the insert fails because another instance created the user meanwhile, that is fine.
 */
async function createOnce(username: string, create: () => Promise<void>) {
  if (await findUser(username)) return false
  try {
    await create()
    return true
  } catch (error) {
    if (await findUser(username)) return false
    throw error
  }
}

export interface BuiltInUsersResult {
  adminCreated: boolean
  /** Set when the admin password was generated (it was logged once). */
  generatedAdminPassword?: string
  anonymousCreated: boolean
}

/**
 * First start: creates `admin` when no user of that name exists (password from
 * MODELGATE_ADMIN_PASSWORD, else a generated one logged once) and the built-in `anonymous` user
 * (no password, so it can never sign in).
 */
export async function ensureBuiltInUsers(options: {
  adminPassword?: string
  /** Receives the generated password's banner (warning level). */
  log: (message: string) => void
  info?: (message: string) => void
}): Promise<BuiltInUsersResult> {
  const result: BuiltInUsersResult = { adminCreated: false, anonymousCreated: false }
  // No password at all (not even a hash of one): findForAuth never returns it.
  result.anonymousCreated = await createOnce(ANONYMOUS_USERNAME, async () => {
    await new User().merge({ username: ANONYMOUS_USERNAME, active: true }).save()
  })
  if (await findUser(ADMIN_USERNAME)) return result
  const fromEnv = options.adminPassword !== undefined && options.adminPassword !== ''
  const password = fromEnv ? options.adminPassword! : generatePassword()
  const problem = passwordProblem(password)
  if (problem) throw new Error(`MODELGATE_ADMIN_PASSWORD ${problem}`)
  const created = await createOnce(ADMIN_USERNAME, async () => {
    // The administrator may do everything (app/security/README.md, built-in roles).
    await createUserWithRoles(
      { username: ADMIN_USERNAME, password },
      { resourceRoles: ['system-full-access', 'system-admin'], rowLevelRoles: [] }
    )
  })
  if (!created) return result
  result.adminCreated = true
  if (fromEnv) {
    options.info?.(
      `created user '${ADMIN_USERNAME}' with the password from MODELGATE_ADMIN_PASSWORD`
    )
  } else {
    result.generatedAdminPassword = password
    options.log(
      [
        '',
        '==================================================================',
        ` Created user '${ADMIN_USERNAME}' with the generated password:`,
        `     ${password}`,
        ' It is shown this once. Sign in and change it, or set',
        ' MODELGATE_ADMIN_PASSWORD before the first start.',
        '==================================================================',
      ].join('\n')
    )
  }
  return result
}
