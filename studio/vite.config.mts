/**
 * Builds Studio (the author's web app) into studio/dist; the API serves it at /studio
 * (src/api/studio.ts). `npm run build:studio`, or `npm start`, which builds it when missing
 * or older than its sources (scripts/ensure-studio.mjs).
 *
 * Every script and stylesheet gets a content hash in its name (Vite's default), so the API
 * caches them for a year; each is also written precompressed beside itself (`.br`, `.gz`)
 * so the API sends brotli or gzip without compressing on every request.
 */
import { constants } from 'node:zlib';
import { defineConfig } from 'vite';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';

export default defineConfig({
  root: import.meta.dirname,
  base: '/studio/',
  oxc: { jsx: { runtime: 'automatic' } },
  plugins: [
    compression({
      // Built once, served many times: the smallest output is worth the build's second.
      algorithms: [
        defineAlgorithm('brotliCompress', { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
        defineAlgorithm('gzip', { level: 9 }),
      ],
      include: /\.(js|css|html|svg|json)$/,
      // Below a packet, compressing saves nothing worth a second file.
      threshold: 1024,
      logLevel: 'silent',
    }),
  ],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // The diff view is a separate chunk: first load carries only what the first screen needs.
    chunkSizeWarningLimit: 600,
    // Brotli at its best quality takes a second or two by design; Rolldown would warn about it on every build.
    rolldownOptions: { checks: { bundlerTimings: false } },
  },
  server: { proxy: { '/api': 'http://127.0.0.1:3000' } },
});
