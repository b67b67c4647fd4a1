/// <reference types="vitest/config" />
import { defineConfig } from 'vite'
import react from '@vitejs/plugin-react'

// The Modelgate server (default port 8080) serves the built console at /console/.
// In development, Vite serves the console and forwards API calls to the running server.
const server = 'http://127.0.0.1:8080'

export default defineConfig({
  base: '/console/',
  plugins: [react()],
  build: {
    outDir: '../public/console',
    emptyOutDir: true,
  },
  server: {
    proxy: {
      '/health': server,
      '/rest': server,
      '/oauth2': server,
      '/admin': server,
    },
  },
  test: {
    environment: 'happy-dom',
    include: ['src/**/*.test.{ts,tsx}'],
  },
})
