/**
 * Serves Studio, the author's web app, at /studio: the Vite build in studio/dist (built by
 * `npm run build`, and by `npm start` when missing or stale: scripts/ensure-studio.mjs).
 * Hashed assets are cached for good and sent precompressed (the build writes `.br` and `.gz`
 * beside each one; brotli when the browser takes it, else gzip, else the plain file); every
 * other GET under /studio that asks for a page gets index.html, so the app's own routes
 * (/studio/projects/…) survive a reload (SPA fallback). Studio talks only to the public API
 * under /api/v1, like any other client.
 */
import fs from 'node:fs';
import path from 'node:path';
import express, { type RequestHandler, type Router } from 'express';
import expressStaticGzip from 'express-static-gzip';
import { UnavailableError } from './errors';

/** studio/dist beside src/ (tsx) or dist/ (compiled): both are two levels under the repo root. */
export const STUDIO_DIR = path.resolve(__dirname, '../../studio/dist');

/**
 * The hashed assets, precompressed. express-static-gzip lists the compressed files once, when
 * it is made; a rebuild while the API runs (the build empties the folder) would leave it
 * naming files that are gone, so it is made again whenever index.html changes.
 */
function assets(dir: string): RequestHandler {
  let current: { stamp: number; serve: RequestHandler } | null = null;
  return (req, res, next) => {
    const stamp = fs.statSync(path.join(dir, 'index.html'), { throwIfNoEntry: false })?.mtimeMs ?? 0;
    if (current?.stamp !== stamp)
      current = {
        stamp,
        serve: expressStaticGzip(path.join(dir, 'assets'), {
          enableBrotli: true,
          orderPreference: ['br', 'gzip'],
          index: false,
          serveStatic: { immutable: true, maxAge: '1y', index: false, fallthrough: false },
        }),
      };
    current.serve(req, res, next);
  };
}

export function studioRouter(dir: string = STUDIO_DIR): Router {
  const r = express.Router();
  r.use('/assets', assets(dir));
  r.use(express.static(dir, { index: false, maxAge: 0 }));
  // Middleware rather than a route: the OpenAPI test lists every route of the app, and pages
  // are not API routes.
  r.use((req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const index = path.join(dir, 'index.html');
    if (!fs.existsSync(index))
      return next(
        new UnavailableError('Studio is not built: run `npm run build:studio` (npm start builds it when missing)'),
      );
    if (!req.accepts('html')) return next();
    res.setHeader('Cache-Control', 'no-cache');
    res.sendFile(index);
  });
  return r;
}
