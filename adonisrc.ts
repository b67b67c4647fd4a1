import { defineConfig } from '@adonisjs/core/app'

export default defineConfig({
  commands: [() => import('@adonisjs/core/commands'), () => import('@adonisjs/lucid/commands')],
  directories: { commands: 'app/commands' },
  providers: [
    () => import('@adonisjs/core/providers/app_provider'),
    () => import('@adonisjs/core/providers/hash_provider'),
    {
      file: () => import('@adonisjs/core/providers/repl_provider'),
      environment: ['repl', 'test'],
    },
    () => import('@adonisjs/core/providers/vinejs_provider'),
    () => import('@adonisjs/cors/cors_provider'),
    () => import('@adonisjs/lucid/database_provider'),
    () => import('@adonisjs/static/static_provider'),
    () => import('@adonisjs/session/session_provider'),
    () => import('@adonisjs/shield/shield_provider'),
    () => import('@adonisjs/auth/auth_provider'),
    // Connects on first use only: without REDIS_URL no store asks for it (config/redis.ts).
    () => import('@adonisjs/redis/redis_provider'),
    () => import('@adonisjs/limiter/limiter_provider'),
    () => import('@adonisjs/drive/drive_provider'),
    () => import('#providers/engine_provider'),
  ],
  preloads: [() => import('#start/routes'), () => import('#start/kernel')],
  tests: {
    suites: [
      { files: ['tests/unit/**/*.spec(.ts|.js)'], name: 'unit', timeout: 10000 },
      { files: ['tests/integration/**/*.spec(.ts|.js)'], name: 'integration', timeout: 60000 },
      { files: ['tests/functional/**/*.spec(.ts|.js)'], name: 'functional', timeout: 60000 },
      { files: ['tests/browser/**/*.spec(.ts|.js)'], name: 'browser', timeout: 60000 },
    ],
    forceExit: true,
  },
  metaFiles: [
    { pattern: 'public/**', reloadServer: false },
    { pattern: 'app/services/**/*.xml', reloadServer: true },
  ],
})
