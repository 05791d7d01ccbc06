/**
 * Jest's node environment, plus a check that a test file leaves nothing running: the live
 * handles (sockets, servers, timers, child processes) of the worker process when the file
 * ends are compared with those before it started. Extra handles still there after a short
 * grace fail the file, naming them: a leaked handle keeps Jest's worker alive ("a worker
 * process has failed to exit gracefully") and slows every later file in that worker.
 * SCRIPTORIUM_OPEN_HANDLES=warn only prints them (to hunt several leaks in one run); =trace
 * also prints where each leaked timer, socket or server was created.
 */
const asyncHooks = require('node:async_hooks');
const { TestEnvironment } = require('jest-environment-node');

/** With SCRIPTORIUM_OPEN_HANDLES=trace: the creation stack of every live async resource, by id. */
const traced = new Map();
if (process.env.SCRIPTORIUM_OPEN_HANDLES === 'trace') {
  asyncHooks
    .createHook({
      init(id, type) {
        if (!IGNORED_TYPES.has(type))
          traced.set(id, { type, stack: new Error().stack.split('\n').slice(2, 14).join('\n') });
      },
      destroy(id) {
        traced.delete(id);
      },
    })
    .enable();
}

/** Handles that come and go with the runtime itself, not with a test's resources. */
const IGNORED_TYPES = new Set(['PROMISE', 'TickObject', 'Microtask', 'Immediate']);
const IGNORED = new Set([
  'TTYWrap',
  'PipeWrap',
  'FSReqCallback',
  'FSReqPromise',
  'FileHandleCloseReq',
  'Immediate',
  'GetAddrInfoReqWrap',
  'SignalWrap',
  'StatWatcher',
  'FSEventWrap',
]);
const GRACE_MS = Number(process.env.SCRIPTORIUM_OPEN_HANDLES_GRACE_MS ?? 3000);

function counts() {
  const out = new Map();
  for (const r of process.getActiveResourcesInfo()) if (!IGNORED.has(r)) out.set(r, (out.get(r) ?? 0) + 1);
  return out;
}

function extra(before, after) {
  const leaked = [];
  for (const [kind, n] of after) {
    const more = n - (before.get(kind) ?? 0);
    if (more > 0) leaked.push(`${more} × ${kind}`);
  }
  return leaked;
}

/**
 * A worker's end. Jest asks each worker to end and force-exits one still running 500 ms later
 * ("a worker process has failed to exit gracefully"). A file's own leaks fail that file
 * (below); a handle left at the very end keeps the loop alive, and the timer below names it
 * with the worker's last file. Traced in loaded runs: the warning came with no live handle and
 * with the process's 'exit' event already fired — the JavaScript side had ended, and the time
 * went to native teardown at exit (the Temporal core runtime the suites load). A worker whose
 * loop has drained after Jest asked it to end has nothing left to do, so it ends there, without
 * that teardown.
 */
let lastTestPath = null;
if (!globalThis.__scriptoriumExitWatch && process.send) {
  globalThis.__scriptoriumExitWatch = true;
  const CHILD_MESSAGE_END = 2;
  const onMessage = (message) => {
    if (!Array.isArray(message) || message[0] !== CHILD_MESSAGE_END) return;
    process.removeListener('message', onMessage);
    process.once('exit', () => process.kill(process.pid, 'SIGKILL'));
    setTimeout(() => {
      const live = process.getActiveResourcesInfo().filter((r) => r !== 'Timeout');
      process.stderr.write(
        `[open-handles] Jest worker ${process.pid} still running 400 ms after it was asked to end; last file ${lastTestPath}; live: ${live.join(', ')}\n`,
      );
    }, 400).unref();
  };
  process.prependListener('message', onMessage);
}

class OpenHandlesEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    this.testPath = context.testPath;
    lastTestPath = context.testPath.replace(`${process.cwd()}/`, '');
  }

  async setup() {
    await super.setup();
    this.before = counts();
  }

  async teardown() {
    await super.teardown();
    let leaked = extra(this.before, counts());
    for (let waited = 0; leaked.length && waited < GRACE_MS; waited += 100) {
      await new Promise((r) => setTimeout(r, 100).unref());
      leaked = extra(this.before, counts());
    }
    if (!leaked.length) return;
    const message = `${this.testPath.replace(`${process.cwd()}/`, '')} left handles open after its last test: ${leaked.join(', ')} (close clients, servers, workers and timers in afterAll)`;
    if (process.env.SCRIPTORIUM_OPEN_HANDLES === 'trace')
      for (const { type, stack } of traced.values())
        if (/Timeout|TCP|Pipe|Process/.test(type)) process.stderr.write(`[open-handles] live ${type}\n${stack}\n`);
    if (process.env.SCRIPTORIUM_OPEN_HANDLES) process.stderr.write(`[open-handles] ${message}\n`);
    else throw new Error(message);
  }
}

module.exports = OpenHandlesEnvironment;
