import { configApp } from '@adonisjs/eslint-config'

export default configApp(
  {
    ignores: ['build/**', 'public/**', 'console-ui/**', 'tmp/**', 'node_modules/**'],
  },
  {
    rules: {
      // `(await query).rows` reads better than a temporary variable for one-off driver results.
      '@unicorn/no-await-expression-member': 'off',
    },
  }
)
