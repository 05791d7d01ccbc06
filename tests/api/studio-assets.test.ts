/**
 * How the API serves Studio's build: hashed assets precompressed (brotli when the browser
 * takes it, else gzip, else the plain file) and cached for a year; a rebuild while the API
 * runs is served compressed too; pages fall back to index.html, never cached. Raw HTTP
 * (node:http), because fetch would undo the compression it is checking.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import express from 'express';
import { studioRouter } from '../../src/api/studio';

let dir: string;
let server: http.Server;
let base: string;

/** Writes a build as Vite and its compression plugin leave it. */
function build(name: string, js: string): void {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(path.join(dir, 'assets'), { recursive: true });
  const file = path.join(dir, 'assets', name);
  fs.writeFileSync(file, js);
  fs.writeFileSync(`${file}.br`, zlib.brotliCompressSync(js));
  fs.writeFileSync(`${file}.gz`, zlib.gzipSync(js));
  fs.writeFileSync(
    path.join(dir, 'index.html'),
    `<!doctype html><div id="root"></div><script src="/studio/assets/${name}"></script>`,
  );
}

function get(
  p: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(`${base}${p}`, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      })
      .on('error', reject);
  });
}

const JS = `console.log(${JSON.stringify('the keeper climbed the stairs '.repeat(200))});`;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'studio-dist-'));
  build('index-AAAA1111.js', JS);
  const app = express().use('/studio', studioRouter(dir));
  server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
  fs.rmSync(dir, { recursive: true, force: true });
});

test('a hashed asset: brotli when accepted, gzip otherwise, plain without either; cached for a year', async () => {
  const br = await get('/studio/assets/index-AAAA1111.js', { 'accept-encoding': 'gzip, deflate, br' });
  expect(br.status).toBe(200);
  expect(br.headers['content-encoding']).toBe('br');
  expect(br.headers['content-type']).toMatch(/javascript/);
  expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  expect(br.headers.vary).toMatch(/Accept-Encoding/i);
  expect(zlib.brotliDecompressSync(br.body).toString()).toBe(JS);
  expect(br.body.length).toBeLessThan(JS.length / 5);

  const gz = await get('/studio/assets/index-AAAA1111.js', { 'accept-encoding': 'gzip' });
  expect(gz.headers['content-encoding']).toBe('gzip');
  expect(zlib.gunzipSync(gz.body).toString()).toBe(JS);

  const plain = await get('/studio/assets/index-AAAA1111.js');
  expect(plain.headers['content-encoding']).toBeUndefined();
  expect(plain.body.toString()).toBe(JS);

  expect((await get('/studio/assets/missing-0000.js', { 'accept-encoding': 'br' })).status).toBe(404);
});

test('a rebuild while the API runs is served compressed too', async () => {
  // The build's new files, with a later index.html (file times are coarse on some file systems).
  build('index-BBBB2222.js', JS.replace('keeper', 'warden'));
  const later = new Date(Date.now() + 5000);
  fs.utimesSync(path.join(dir, 'index.html'), later, later);
  const res = await get('/studio/assets/index-BBBB2222.js', { 'accept-encoding': 'br' });
  expect(res.status).toBe(200);
  expect(res.headers['content-encoding']).toBe('br');
  expect(zlib.brotliDecompressSync(res.body).toString()).toContain('warden');
});

test('pages fall back to index.html, which is never cached', async () => {
  const page = await get('/studio/projects/0123456789abcdef01234567/chat', { accept: 'text/html' });
  expect(page.status).toBe(200);
  expect(page.headers['cache-control']).toBe('no-cache');
  expect(page.body.toString()).toContain('<div id="root">');
});
