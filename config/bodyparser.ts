import { defineConfig } from '@adonisjs/core/bodyparser'

export default defineConfig({
  allowedMethods: ['POST', 'PUT', 'PATCH', 'DELETE'],
  form: { convertEmptyStringsToNull: true, types: ['application/x-www-form-urlencoded'] },
  json: {
    convertEmptyStringsToNull: false,
    types: [
      'application/json',
      'application/json-patch+json',
      'application/vnd.api+json',
      'application/csp-report',
    ],
  },
  // YAML definition documents posted to the admin API (request.raw()).
  raw: {
    types: ['application/yaml', 'application/x-yaml', 'text/yaml', 'text/x-yaml'],
  },
  multipart: {
    autoProcess: true,
    convertEmptyStringsToNull: true,
    // The Files API streams its uploads itself (app/files/upload.ts).
    processManually: ['/rest/files'],
    limit: '20mb',
    types: ['multipart/form-data'],
  },
})
