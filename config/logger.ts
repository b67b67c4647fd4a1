import env from '#start/env'
import app from '@adonisjs/core/services/app'
import { defineConfig, destination, targets } from '@adonisjs/core/logger'
import { REDACT_CENSOR, REDACT_PATHS } from '#operations/log_redaction'

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

const loggerConfig = defineConfig({
  default: 'app',
  loggers: {
    app: {
      enabled: true,
      name: 'modelgate',
      level: env.get('LOG_LEVEL', 'info'),
      // Tokens, secrets, passwords, codes (app/operations/log_redaction.ts).
      redact: { paths: REDACT_PATHS, censor: REDACT_CENSOR },
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
