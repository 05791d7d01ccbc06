/** A bare `/metrics` endpoint for processes without the API (a standalone worker). */
import http from 'node:http';
import { listenOn } from '../shared/listen';
import { scrape } from './metrics';

export interface MetricsServer {
  port: number;
  close(): Promise<void>;
}

export async function serveMetrics(host: string, port: number): Promise<MetricsServer> {
  const server = http.createServer((req, res) => {
    if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') {
      res.writeHead(404).end();
      return;
    }
    scrape().then(
      ({ contentType, body }) => res.writeHead(200, { 'Content-Type': contentType }).end(body),
      () => res.writeHead(500).end(),
    );
  });
  return {
    port: await listenOn(server, port, host, 'WORKER_METRICS_PORT'),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
