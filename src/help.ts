/**
 * `--help` for the entry points (`node dist/main.js --help`, the worker's): what the process
 * does and the settings it would run with, then exit — so a newcomer learns what to set
 * without reading source. Each setting's meaning is in `.env.example`, generated from the
 * comments in config.ts.
 */
import { configSchema, loadConfig, maskValue } from './config';

export function wantsHelp(argv: readonly string[] = process.argv.slice(2)): boolean {
  return argv.includes('--help') || argv.includes('-h');
}

export interface HelpText {
  usage: string;
  /** What the process does and what it needs, a line each. */
  about: string[];
}

/** The help text with every setting's effective value (secrets masked). */
export function helpText(text: HelpText, env: NodeJS.ProcessEnv = process.env): string {
  let effective: Record<string, unknown> | null = null;
  let problem: string | null = null;
  try {
    effective = loadConfig({ env }) as unknown as Record<string, unknown>;
  } catch (err) {
    problem = (err as Error).message;
  }
  const keys = Object.keys(configSchema.shape);
  const width = Math.max(...keys.map((k) => k.length));
  const settings = keys.map((key) => {
    const raw = effective ? effective[key] : env[key];
    const shown = raw === undefined || raw === '' ? '(unset)' : maskValue(key, String(raw));
    return `  ${key.padEnd(width)}  ${shown}`;
  });
  return [
    `Usage: ${text.usage}`,
    '',
    ...text.about,
    '',
    'Settings, from the environment or a .env file in the working directory (each is described in .env.example);',
    effective ? 'the values this process would run with, secrets masked:' : 'as given (they do not load, see below):',
    ...settings,
    ...(problem ? ['', problem] : []),
    '',
  ].join('\n');
}

/** Each entry point's usage line and what it does (the offline model has its own, with its flags). */
const ENTRY_HELP: Record<'api' | 'worker', HelpText> = {
  api: {
    usage: 'npm start   (or: node dist/main.js [--help])',
    about: [
      'Starts Scriptorium: the HTTP API (PORT, HOST), a worker in this process unless RUN_WORKER_IN_PROCESS=false,',
      'and the offline model when no OPENAI_API_KEY is set. `npm start` first starts the local services',
      '(Temporal dev server, a MongoDB-wire server, Redis: scripts/services.sh); `node dist/main.js` expects them running.',
    ],
  },
  worker: {
    usage: 'npm run worker   (or: node dist/worker.js [--help])',
    about: [
      'Runs a Scriptorium worker on its own: it polls TEMPORAL_TASK_QUEUE on TEMPORAL_ADDRESS and runs turns and jobs,',
      'reading and writing MONGODB_URI and REDIS_URL. It needs a model: OPENAI_API_KEY, or OPENAI_BASE_URL of a model',
      'server such as the offline model (`npm run offline-model`). The API runs apart (RUN_WORKER_IN_PROCESS=false npm start).',
    ],
  },
};

/** Prints the entry point's help when asked (`--help`, `-h`); true when it did, and the process should end. */
export function printHelpIfAsked(entry: keyof typeof ENTRY_HELP): boolean {
  if (!wantsHelp()) return false;
  process.stdout.write(helpText(ENTRY_HELP[entry]));
  return true;
}
