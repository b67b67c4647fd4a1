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
    // One DOM environment and module graph per worker thread instead of one per file: the files
    // render into their own containers and make their own query clients. 17 CPU seconds for
    // the suite instead of 71, which CI's two cores spend on the test passes instead.
    pool: 'threads',
    isolate: false,
  },
})
