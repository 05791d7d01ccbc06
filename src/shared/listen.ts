/**
 * Binding a server's port, with an error a person can act on. Express 5 hands a listen error
 * to `app.listen`'s callback, and a plain `server.listen` emits it as an event: ignored, the
 * process printed its URL, never listened, and went on to start a worker.
 */
import type { Server } from 'node:http';

/** Why a port could not be bound, naming the setting that chooses it and what to do. */
export function listenProblem(err: NodeJS.ErrnoException, port: number, host: string, setting: string): string {
  const where = `${host}:${port}`;
  if (err.code === 'EADDRINUSE')
    return `Port ${port} on ${host} is already in use (another Scriptorium, or another program, is listening on ${where}). Stop it, or set ${setting} to a free port (e.g. ${setting}=${port + 1}).`;
  if (err.code === 'EACCES')
    return `Not allowed to listen on ${where} (ports below 1024 need privileges). Set ${setting} to a port above 1024.`;
  if (err.code === 'EADDRNOTAVAIL')
    return `Cannot listen on ${where}: ${host} is not an address of this machine. Check HOST.`;
  return `Cannot listen on ${where} (${err.code ?? err.message}). Check HOST and ${setting}.`;
}

/** Listens, or rejects with {@link listenProblem}'s message; the server is left closed. */
export function listenOn(server: Server, port: number, host: string, setting: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException): void => reject(new Error(listenProblem(err, port, host, setting)));
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      const addr = server.address();
      resolve(typeof addr === 'object' && addr ? addr.port : port);
    });
  });
}
