/**
 * Context assembly on a long book: a generated 60-chapter Chinese novel (40 characters,
 * 20 settings, ten earlier turns) on the real MongoDB-wire server. For each model step of
 * one turn it prints the time to build the prompt, the MongoDB commands that took, and the
 * prompt tokens; then what the one-per-turn assembly chose.
 *
 *   npm run bench:context [-- --steps 6 --turns 3]
 */
import mongoose from 'mongoose';
import { buildAgentMessages } from '../src/activities/step/agent-messages';
import { createWorkerCaches } from '../src/activities/worker-caches';
import { loadConfig } from '../src/config';
import { createModels, syncIndexes } from '../src/db/models';
import { countPromptTokens } from '../src/offline-model/tokens';
import type { ChatCompletionRequest } from '../src/offline-model/types';
import type { LlmStepInput } from '../src/core/turn/turn-types';
import { generateLongBook } from './fixtures/long-book';

function flag(name: string, def: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : def;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  const steps = flag('steps', 6);
  const turns = flag('turns', 3);
  const config = loadConfig({ env: { ...process.env, SCRIPTORIUM_ENV_PRIORITY: 'none' } });
  const dbName = `scriptorium_bench_context_${Date.now().toString(36)}`;
  const conn = mongoose.createConnection(config.MONGODB_URI, {
    dbName,
    monitorCommands: true,
    serverSelectionTimeoutMS: 5000,
  });
  await conn.asPromise();
  let commands: string[] = [];
  conn
    .getClient()
    .on('commandStarted', (e) => commands.push(`${e.commandName} ${String(e.command[e.commandName] ?? '')}`));
  const models = createModels(conn);
  await syncIndexes(models);
  const settings = {
    contextTokens: config.AGENT_CONTEXT_TOKEN_BUDGET,
    historyTokens: config.AGENT_CHAT_HISTORY_TOKEN_BUDGET,
    ledgerCeiling: config.PROMPT_TOKEN_LEDGER_CEILING,
    workingSetMaxFiles: config.AGENT_WORKING_SET_MAX_FILES,
    workingSetMaxChars: config.AGENT_WORKING_SET_MAX_CHARS,
  };
  // One worker's caches for every turn: a later turn finds the book measured and indexed, as
  // in a worker that has served the project before.
  const caches = createWorkerCaches();
  try {
    const t0 = performance.now();
    const book = await generateLongBook(models);
    const files = await models.File.find({ projectId: book.projectId }).select({ content: 1 }).lean();
    const chars = files.reduce((n, f) => n + f.content.length, 0);
    console.log(
      `\nFixture: ${files.length} files, ${chars} characters (60 chapters, 40 characters, 20 settings, outline), 20 history messages; generated in ${Math.round(performance.now() - t0)} ms`,
    );
    console.log(
      `Budgets: context ${settings.contextTokens}, history ${settings.historyTokens}, ledger ${settings.ledgerCeiling}, working set ${settings.workingSetMaxFiles} files / ${settings.workingSetMaxChars} chars\n`,
    );
    console.log('| turn | step | prompt build ms | MongoDB commands | prompt tokens | history msgs | note |');
    console.log('|---|---|---|---|---|---|---|');
    const firstMs: number[] = [];
    const laterMs: number[] = [];
    let laterCommands = '';
    let lastStats: unknown = null;
    for (let t = 1; t <= turns; t++) {
      const message = `写第51章：${book.names[2]}在灯塔等${book.names[7]}，别忘了铜钥匙藏在钟楼。`;
      const turn = await models.Turn.create({
        sessionId: book.sessionId,
        projectId: book.projectId,
        ownerId: book.ownerId,
        message,
        workflowId: `bench-${t}`,
      });
      const turnId = String(turn._id);
      for (let step = 1; step <= steps; step++) {
        const input: LlmStepInput = {
          turnId,
          run: 0,
          step,
          agent: 'writer',
          runTools: { flags: { readOnly: false, clarifyFirst: false } },
          slot: step,
          runKind: 'initial',
          packet: null,
          scope: { scope: '第51章', writeContent: true, readOnly: false, clarifyFirst: false, remainingPlan: [] },
          pendingFileId: null,
          holdChat: false,
          steering: [],
          prelude: [],
        };
        commands = [];
        const s0 = performance.now();
        const prompt = await buildAgentMessages(models, caches, input, settings);
        const ms = performance.now() - s0;
        const tokens = countPromptTokens({ messages: prompt.messages } as ChatCompletionRequest);
        (step === 1 ? firstMs : laterMs).push(ms);
        if (step === 2) laterCommands = commands.join(', ');
        console.log(
          `| ${t} | ${step} | ${ms.toFixed(1)} | ${commands.length} | ${tokens} | ${prompt.ledger.historyMessages} | ${step === 1 ? 'assembles the turn context' : `reuses it; tool loop ${step - 1} results${prompt.ledger.elided ? `, ${prompt.ledger.elided} elided` : ''}`} |`,
        );
        // The step "reads a chapter": its transcript grows the next step's tool loop.
        const chapter = files.find((f) => String(f._id) === book.chapterIds[20 + step])!;
        await models.AgentStep.create({
          _id: `${turnId}:${step}`,
          turnId,
          run: 0,
          step,
          agent: 'writer',
          rawContent: '',
          toolCalls: [{ id: `c${step}`, name: 'query_files', arguments: JSON.stringify({ id: String(chapter._id) }) }],
          toolResults: [
            {
              toolCallId: `c${step}`,
              content: JSON.stringify({ ok: true, id: String(chapter._id), content: chapter.content }),
            },
          ],
        });
      }
      lastStats = (await models.TurnContext.findById(turnId).lean())?.stats;
    }
    console.log(
      `\nFirst step of a turn (assembles): median ${median(firstMs).toFixed(1)} ms; later steps (reuse): median ${median(laterMs).toFixed(1)} ms`,
    );
    console.log(`A later step's MongoDB commands: ${laterCommands}`);
    const s = lastStats as {
      full: string[];
      truncated: string[];
      snippets: string[];
      leftOut: number;
      workingSet: { listed: number; whole: string[] };
      names: string[];
      retrievalMs: number;
      buildMs: number;
    };
    console.log(
      `Assembly: ${s.full.length} items [full], ${s.truncated.length} truncated, ${s.snippets.length} snippets, ${s.leftOut} left out (in the file list only); names in query: ${s.names.join(', ')}; working set ${s.workingSet.whole.length} whole of ${s.workingSet.listed}; retrieval ${s.retrievalMs} ms of ${s.buildMs} ms build`,
    );
  } finally {
    await conn.dropDatabase().catch(() => undefined);
    await conn.close();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
