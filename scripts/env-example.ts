/**
 * Renders `.env.example` from the zod config schema (src/config.ts): every key in schema
 * order, its default, its allowed values, and the doc comment written above it. The schema
 * is the one source; `npm run env:example` rewrites the file and
 * tests/unit/env-example.test.ts fails while the two differ.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { z } from 'zod';
import { configSchema } from '../src/config';

const CONFIG_SOURCE = path.resolve(__dirname, '../src/config.ts');

interface KeyDoc {
  comment: string[];
  /** A blank line stands before the key in the schema: a new group starts. */
  groupStart: boolean;
}

/** Doc comments and groups, read from the schema's source text (zod keeps no comments). */
function keyDocs(source: string): Map<string, KeyDoc> {
  const body = source.slice(source.indexOf('export const configSchema = z.object({'));
  const docs = new Map<string, KeyDoc>();
  let pending: string[] = [];
  let inComment = false;
  let blank = false;
  for (const raw of body.split('\n').slice(1)) {
    const line = raw.trim();
    if (line.startsWith('});')) break;
    if (!line) {
      blank = true;
      continue;
    }
    if (line.startsWith('/**')) {
      inComment = !line.endsWith('*/');
      pending = [line.replace(/^\/\*\*\s?/, '').replace(/\s?\*\/$/, '')];
      continue;
    }
    if (inComment) {
      inComment = !line.endsWith('*/');
      // The closing `*/` first: on a line of its own it leaves nothing (not a stray `/`).
      pending.push(line.replace(/\s?\*\/$/, '').replace(/^\*\s?/, ''));
      continue;
    }
    const key = /^([A-Z][A-Z0-9_]*):/.exec(line)?.[1];
    if (key) {
      docs.set(key, { comment: pending.filter(Boolean), groupStart: blank });
      pending = [];
      blank = false;
    }
  }
  return docs;
}

type AnySchema = z.ZodType & {
  _zod: { def: { type: string; innerType?: AnySchema; in?: AnySchema; entries?: Record<string, string> } };
};

/** Allowed values of an enum setting (through default/pipe wrappers), or null. */
function enumValues(schema: AnySchema): string[] | null {
  const def = schema._zod.def;
  if (def.type === 'enum' && def.entries) return Object.values(def.entries);
  if (def.innerType) return enumValues(def.innerType);
  if (def.in) return enumValues(def.in);
  return null;
}

function defaultOf(schema: AnySchema): string {
  const parsed = schema.safeParse(undefined);
  return parsed.success && parsed.data !== undefined ? String(parsed.data) : '';
}

export function renderEnvExample(): string {
  const docs = keyDocs(fs.readFileSync(CONFIG_SOURCE, 'utf8'));
  const out = [
    '# Scriptorium settings, generated from the zod schema in src/config.ts by `npm run env:example`.',
    '# Do not edit by hand: change the schema and rerun. Every setting has a default that runs',
    '# locally; uncomment a line to change it. Copy to `.env` or set them in the environment.',
    '#',
    '# Who wins when a key is in both the environment and .env: dotenv (default), process, or none',
    '# (ignore .env). Conflicts are logged at start-up and listed in GET /health.',
    '# SCRIPTORIUM_ENV_PRIORITY=dotenv',
  ];
  const shape = configSchema.shape as unknown as Record<string, AnySchema>;
  for (const [key, schema] of Object.entries(shape)) {
    const doc = docs.get(key) ?? { comment: [], groupStart: false };
    if (doc.groupStart || out.at(-1)!.startsWith('# SCRIPTORIUM_ENV_PRIORITY')) out.push('');
    for (const c of doc.comment) out.push(`# ${c}`);
    const values = enumValues(schema);
    if (values) out.push(`# One of: ${values.join(', ')}.`);
    out.push(`# ${key}=${defaultOf(schema)}`);
  }
  return `${out.join('\n')}\n`;
}
