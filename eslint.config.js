import { configApp } from '@adonisjs/eslint-config'

export default configApp({
  ignores: ['build/**', 'public/**', 'console-ui/**', 'tmp/**', 'node_modules/**'],
})
