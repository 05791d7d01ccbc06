/**
 * Builds Studio (the author's web app) into studio/dist; the API serves it at /studio
 * (src/api/studio.ts). `npm run build:studio`, or `npm start`, which builds it when missing
 * or older than its sources (scripts/ensure-studio.mjs).
 */
import { defineConfig } from 'vite';

export default defineConfig({
  root: import.meta.dirname,
  base: '/studio/',
  oxc: { jsx: { runtime: 'automatic' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // The diff view is a separate chunk: first load carries only what the first screen needs.
    chunkSizeWarningLimit: 600,
  },
  server: { proxy: { '/api': 'http://127.0.0.1:3000' } },
});
