import env from '#start/env'
import app from '@adonisjs/core/services/app'
import { defineConfig, destination, targets } from '@adonisjs/core/logger'

/**
 * JSON lines (one object per line, pino's format) in production and in tests, or wherever
 * LOG_FORMAT=json; pretty lines in development (LOG_FORMAT=pretty forces them).
 *
 * JSON goes to stdout through an asynchronous sonic-boom stream in this thread: cheaper per line
 * than a transport's worker thread, which would also take CPU from the requests on a small
 * machine; pino flushes it synchronously at exit.
 */
const json =
  (env.get('LOG_FORMAT') ?? (app.inProduction || app.inTest ? 'json' : 'pretty')) === 'json'

/**
 * Values that must never reach a log line, wherever a logged object carries them: credentials
 * in headers, passwords, client secrets, tokens, authorization codes and PKCE verifiers. The
 * access log itself writes none of them (app/operations/request_context_middleware.ts); these
 * paths guard whatever else gets logged (an error's context, a handler's own object).
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
/** `code` is also an error's code (`err.code`): redacted only where request input lives. */
const INPUT_OBJECTS = ['body', 'params', 'query', 'form', 'input', 'qs']
const REDACT = [
  ...SECRET_KEYS.flatMap((key) => [`["${key}"]`, `*["${key}"]`]),
  ...['headers', 'req.headers', 'request.headers', 'res.headers'].flatMap((h) =>
    SECRET_KEYS.map((key) => `${h}["${key}"]`)
  ),
  'code',
  ...INPUT_OBJECTS.map((o) => `${o}.code`),
]

const loggerConfig = defineConfig({
  default: 'app',
  loggers: {
    app: {
      enabled: true,
      name: 'modelgate',
      level: env.get('LOG_LEVEL', 'info'),
      redact: { paths: REDACT, censor: '[redacted]' },
      ...(json
        ? { desination: destination({ dest: 1, sync: false }) }
        : { transport: { targets: targets().push(targets.pretty()).toArray() } }),
    },
  },
})

export default loggerConfig

declare module '@adonisjs/core/types' {
  export interface LoggersList extends InferLoggers<typeof loggerConfig> {}
}
