import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { parseApiTokens } from '../../src/auth-settings';
import { configSchema, loadConfig, maskValue } from '../../src/config';

function withDotenv(content: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scriptorium-config-'));
  fs.writeFileSync(path.join(dir, '.env'), content);
  return dir;
}

describe('config', () => {
  test('every setting has a local default', () => {
    const c = loadConfig({ env: { SCRIPTORIUM_ENV_PRIORITY: 'none' } });
    expect(c).toMatchObject({
      PORT: 3000,
      HOST: '127.0.0.1',
      TEMPORAL_ADDRESS: '127.0.0.1:7233',
      TEMPORAL_TASK_QUEUE: 'scriptorium',
      MONGODB_URI: 'mongodb://127.0.0.1:27017/scriptorium',
      REDIS_URL: 'redis://127.0.0.1:6379',
    });
    expect(c.meta.offlineModel).toBe(true);
  });

  test('.env wins by default, and the conflict is reported with masked values', () => {
    const cwd = withDotenv('OPENAI_API_KEY=sk-from-dotenv-1234\nPORT=4000\n');
    const c = loadConfig({ cwd, env: { OPENAI_API_KEY: 'sk-global-broken-9999', PORT: '4000' } });
    expect(c.OPENAI_API_KEY).toBe('sk-from-dotenv-1234');
    expect(c.meta.conflicts).toEqual([
      { key: 'OPENAI_API_KEY', winner: 'dotenv', effective: '***1234', ignored: '***9999' },
    ]);
  });

  test('process priority lets the environment win; none ignores .env', () => {
    const cwd = withDotenv('PORT=4000\n');
    expect(loadConfig({ cwd, env: { SCRIPTORIUM_ENV_PRIORITY: 'process', PORT: '5000' } }).PORT).toBe(5000);
    expect(loadConfig({ cwd, env: { SCRIPTORIUM_ENV_PRIORITY: 'none' } }).PORT).toBe(3000);
  });

  test('bad values fail with the key named', () => {
    expect(() => loadConfig({ env: { SCRIPTORIUM_ENV_PRIORITY: 'none', PORT: 'abc' } })).toThrow(/PORT/);
    expect(() => parseApiTokens('justatoken')).toThrow(/token:user/);
    expect(parseApiTokens('a-long-enough-token-1:alice, b-long-enough-token-2:bob')).toEqual(
      new Map([
        ['a-long-enough-token-1', 'alice'],
        ['b-long-enough-token-2', 'bob'],
      ]),
    );
    expect(maskValue('MONGODB_URI', 'mongodb://u:p@host/db')).toBe('mongodb://***@host/db');
  });
});

describe('docker-compose.yml', () => {
  const compose = parse(fs.readFileSync(path.join(__dirname, '../../docker-compose.yml'), 'utf8'), { merge: true }) as {
    services: Record<string, { environment?: Record<string, string>; command?: string[]; volumes?: string[] }>;
  };

  test('describes production: Temporal with PostgreSQL, Temporal UI, MongoDB, Redis, API and worker', () => {
    expect(Object.keys(compose.services)).toEqual(
      expect.arrayContaining(['postgresql', 'temporal', 'temporal-ui', 'mongodb', 'redis', 'api', 'worker']),
    );
    // Compiled code on Node, as the image builds it (not npx, not tsx).
    expect(compose.services.api!.command).toEqual(['node', 'dist/main.js']);
    expect(compose.services.worker!.command).toEqual(['node', 'dist/worker.js']);
  });

  test('the API and worker use only config names the code reads', () => {
    const known = new Set([...Object.keys(configSchema.shape), 'SCRIPTORIUM_ENV_PRIORITY']);
    for (const svc of ['api', 'worker']) {
      const names = Object.keys(compose.services[svc]!.environment ?? {});
      expect(names.filter((n) => !known.has(n))).toEqual([]);
      expect(names).toEqual(
        expect.arrayContaining(['TEMPORAL_ADDRESS', 'MONGODB_URI', 'REDIS_URL', 'TEMPORAL_TASK_QUEUE']),
      );
    }
  });

  test('Temporal runs with eager activity execution, as the local dev server does', () => {
    const temporal = compose.services.temporal!;
    const target = temporal.environment!.DYNAMIC_CONFIG_FILE_PATH!;
    const mount = (temporal.volumes ?? []).find((v) => v.split(':')[1] === target);
    expect(mount).toBeDefined();
    const dynamic = parse(fs.readFileSync(path.join(__dirname, '../..', mount!.split(':')[0]!), 'utf8')) as Record<
      string,
      { value: unknown }[]
    >;
    expect(dynamic['system.enableActivityEagerExecution']).toEqual([{ value: true }]);
    const services = fs.readFileSync(path.join(__dirname, '../../scripts/services.sh'), 'utf8');
    expect(services).toContain('--dynamic-config-value system.enableActivityEagerExecution=true');
  });
});
