/**
 * Large JSON answers (a 1,000-chapter book's file list, its board, a search across it), sent
 * gzipped when the client takes gzip, with an ETag so a client polling an unchanged list
 * gets a bodiless 304 from its own cache. `no-cache` means "revalidate every time": a stale
 * manuscript list is never shown as current.
 */
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { Request, Response } from 'express';

/** Below this, gzip saves too little to be worth it. */
const GZIP_FROM_BYTES = 4096;

export function sendJson(req: Request, res: Response, body: unknown): void {
  const text = JSON.stringify(body);
  const etag = `W/"${createHash('sha1').update(text).digest('base64url')}"`;
  res.setHeader('Cache-Control', 'private, no-cache');
  res.setHeader('ETag', etag);
  res.setHeader('Vary', 'Accept-Encoding, Authorization');
  if (req.headers['if-none-match'] === etag) {
    res.status(304).end();
    return;
  }
  res.type('application/json; charset=utf-8');
  const raw = Buffer.from(text, 'utf8');
  if (raw.length >= GZIP_FROM_BYTES && /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''))) {
    res.setHeader('Content-Encoding', 'gzip');
    res.end(gzipSync(raw, { level: 6 }));
    return;
  }
  res.end(raw);
}
