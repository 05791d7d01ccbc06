/** `npm run env:example`: rewrites .env.example from the config schema (see env-example.ts). */
import fs from 'node:fs';
import path from 'node:path';
import { renderEnvExample } from './env-example';

const file = path.resolve(__dirname, '../.env.example');
fs.writeFileSync(file, renderEnvExample());
console.log(`wrote ${path.relative(process.cwd(), file)}`);
