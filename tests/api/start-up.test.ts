/**
 * The entry points as a newcomer meets them: a busy port stops `npm start` with
 * what to do before anything else starts; `--help` prints what each process does and the
 * settings it would run with, and exits; a standalone worker with no model says how to give
 * it one.
 */
import net from 'node:net';
import { freePort, runEntry } from '../helpers/entry-process';

test('a port already in use stops the API before any worker or model starts, naming the port and the setting', async () => {
  const port = await freePort();
  const squatter = net.createServer().listen(port, '127.0.0.1');
  await new Promise((r) => squatter.once('listening', r));
  try {
    const r = await runEntry({ HOST: '127.0.0.1' }, { port });
    expect(r.code).toBe(1);
    expect(r.output).toContain(`Port ${port} on 127.0.0.1 is already in use`);
    expect(r.output).toContain(`set PORT to a free port (e.g. PORT=${port + 1})`);
    // Nothing after the bind ran: no URL printed, no worker, no offline model.
    expect(r.output).not.toMatch(/Scriptorium API:|Worker:|OFFLINE MODEL IN USE/);
  } finally {
    squatter.close();
  }
}, 70_000);

test('`main --help` prints the settings it would run with, secrets masked, and exits without listening', async () => {
  const r = await runEntry({ OPENAI_API_KEY: 'sk-test-secret-value-7788', PORT: '3999' }, { args: ['--help'] });
  expect(r.code).toBe(0);
  expect(r.listened).toBe(false);
  expect(r.output).toContain('Usage: npm start');
  expect(r.output).toMatch(/^ {2}PORT +\d+$/m);
  expect(r.output).toMatch(/^ {2}OPENAI_API_KEY +\*\*\*7788$/m);
  expect(r.output).not.toContain('sk-test-secret-value');
  expect(r.output).toContain('.env.example');
}, 70_000);

test('`main --help` still shows the settings when they do not load, and why', async () => {
  const r = await runEntry({ PORT: 'not-a-port' }, { args: ['--help'] });
  expect(r.code).toBe(0);
  expect(r.output).toMatch(/^ {2}PORT +not-a-port$/m);
  expect(r.output).toMatch(/Invalid configuration:\n {2}PORT/);
}, 70_000);

test('the worker and the offline model explain themselves with --help', async () => {
  const worker = await runEntry({}, { entry: 'src/worker.ts', args: ['--help'] });
  expect(worker.code).toBe(0);
  expect(worker.output).toContain('Usage: npm run worker');
  expect(worker.output).toMatch(/^ {2}TEMPORAL_TASK_QUEUE +\S+$/m);
  const model = await runEntry({}, { entry: 'src/offline-model/main.ts', args: ['--help'] });
  expect(model.code).toBe(0);
  expect(model.output).toContain('Usage: npm run offline-model');
  expect(model.output).toContain('--chapter-words');
}, 70_000);

test('a standalone worker with no model says how to start the offline model, and exits', async () => {
  const r = await runEntry({ OPENAI_API_KEY: '' }, { entry: 'src/worker.ts' });
  expect(r.code).toBe(1);
  expect(r.output).toContain('npm run offline-model -- --port 4010');
  expect(r.output).toContain('OPENAI_BASE_URL=http://127.0.0.1:4010/v1 npm run worker');
  // A message for a person, not a stack trace.
  expect(r.output).not.toMatch(/\n\s+at /);
}, 70_000);
