/**
 * What pino blanks out of every log line (config/logger.ts): values that must never reach a
 * log, wherever a logged object carries them: credentials in headers, passwords, client
 * secrets, tokens, authorization codes, PKCE verifiers, CSRF tokens. The access log itself
 * writes none of them (request_context_middleware.ts); these paths guard whatever else gets
 * logged (an error's context, a handler's own object).
 */
const SECRET_KEYS = [
  'password',
  'client_secret',
  'access_token',
  'refresh_token',
  'id_token',
  'code_verifier',
  'token',
  'secret',
  'authorization',
  'cookie',
  'set-cookie',
  '_csrf',
  'x-csrf-token',
  'x-xsrf-token',
]

/**
 * Where those keys are looked for: the top level and the objects that carry request input or
 * headers. Explicit paths, no `*` wildcard: pino compiles explicit paths into plain property
 * tests (no measurable cost per line), while each wildcard walks every key of the logged object
 * and of the child bindings (measured: about 25 µs per access line for this list as wildcards).
 */
const CONTAINERS = [
  '',
  'body',
  'params',
  'query',
  'qs',
  'form',
  'input',
  'data',
  'payload',
  'credentials',
  'user',
  'client',
  'req',
  'request',
  'headers',
  'req.headers',
  'request.headers',
  'res.headers',
  'response.headers',
]

/** `code` is also an error's code (`err.code`): redacted only where request input lives. */
const CODE_CONTAINERS = ['', 'body', 'params', 'query', 'qs', 'form', 'input', 'data', 'payload']

const at = (container: string, key: string) => `${container}["${key}"]`

/** fast-redact paths. */
export const REDACT_PATHS = [
  ...CONTAINERS.flatMap((c) => SECRET_KEYS.map((key) => at(c, key))),
  ...CODE_CONTAINERS.map((c) => at(c, 'code')),
]

export const REDACT_CENSOR = '[redacted]'
