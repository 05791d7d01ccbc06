/**
 * Runs the offline model on its own:
 *   npx tsx src/offline-model/main.ts --port 4010 --ttft-ms 300 --tps 80 [--host 127.0.0.1] [--chapter-words 1000]
 * and prints its base URL, to point any OpenAI-compatible client (or the engine, via
 * OPENAI_BASE_URL) at it.
 */
import { parseArgs } from 'node:util';
import { startOfflineModel } from './server';

function num(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) throw new Error(`--${name} must be a non-negative number, got "${value}"`);
  return n;
}

const HELP = `Usage: npm run offline-model -- [--port 4010] [--host 127.0.0.1] [--ttft-ms 300] [--tps 80] [--chapter-words 1000]

Runs Scriptorium's offline model: an OpenAI-compatible chat-completions server that streams scripted
answers with tool calls, so the engine runs end to end with no real model. Point a worker at it with
OPENAI_BASE_URL=http://<host>:<port>/v1 (\`npm start\` starts one in-process when no OPENAI_API_KEY is set).

  --port N            port to listen on (default 4010; 0 picks a free one)
  --host H            address to listen on (default 127.0.0.1)
  --ttft-ms N         delay before the first token, in ms (default 300)
  --tps N             streamed tokens per second (default 80)
  --chapter-words N   length of a scripted chapter, in words (default 1000)
`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      'ttft-ms': { type: 'string' },
      tps: { type: 'string' },
      'chapter-words': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    process.stdout.write(HELP);
    return;
  }
  const model = await startOfflineModel({
    port: num(values.port, 'port', 4010),
    host: values.host ?? '127.0.0.1',
    ttftMs: num(values['ttft-ms'], 'ttft-ms', 300),
    tokensPerSecond: Math.max(1, num(values.tps, 'tps', 80)),
    persona: { chapterWords: num(values['chapter-words'], 'chapter-words', 1000) },
    logger: { info: (...a: unknown[]) => console.log(...a), error: (...a: unknown[]) => console.error(...a) },
  });
  console.log(`OFFLINE MODEL (no real LLM): OpenAI-compatible API at ${model.baseURL}  model=scriptorium-offline`);
  const stop = () => {
    void model.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
