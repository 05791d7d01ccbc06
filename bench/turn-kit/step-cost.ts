/**
 * Where an LLM step's own time goes, outside the model: each `llmStep` input of a finished
 * turn (read back from its Temporal history) is re-run through the step's reads and
 * prompt building — the same functions llm.ts calls — timing each part and counting its
 * MongoDB commands. Nothing is written; the model is not called.
 */
import type { MongoClient } from 'mongodb';
import { buildAgentMessages } from '../../src/activities/step/agent-messages';
import { countTokens } from '../../src/activities/context';
import { createWorkerCaches } from '../../src/activities/worker-caches';
import type { Config } from '../../src/config';
import type { Runtime } from '../../src/runtime';
import type { LlmStepInput } from '../../src/core/turn/turn-types';

function decode(payload: { data?: Uint8Array | null } | undefined): unknown {
  return payload?.data ? JSON.parse(Buffer.from(payload.data).toString('utf8')) : null;
}

export interface StepCost {
  step: number;
  agent: string;
  readsMs: number;
  buildMs: number;
  buildCommands: number;
  tokenCountMs: number;
  promptChars: number;
}

/** Runs the step inputs of `workflowId` through the reads and prompt building of llm.ts. */
export async function stepCosts(runtime: Runtime, config: Config, workflowId: string): Promise<StepCost[]> {
  const history = await runtime.temporal.workflow.getHandle(workflowId).fetchHistory();
  const inputs = (history.events ?? [])
    .map((e) => e.activityTaskScheduledEventAttributes)
    .filter((a) => a?.activityType?.name === 'llmStep')
    .map((a) => decode(a!.input?.payloads?.[0] ?? undefined) as LlmStepInput);
  const client = runtime.mongo.getClient() as unknown as MongoClient;
  let commands = 0;
  const count = (): void => void (commands += 1);
  client.on('commandStarted', count);
  const { models } = runtime;
  // The steps re-run as in one worker: a later step finds the context an earlier one read.
  const caches = createWorkerCaches();
  const out: StepCost[] = [];
  try {
    for (const input of inputs) {
      const readsMs = 0; // the stored turn context replaces the separate Turn + Project reads
      const before = commands;
      let t = performance.now();
      const { messages } = await buildAgentMessages(models, caches, input, {
        contextTokens: config.AGENT_CONTEXT_TOKEN_BUDGET,
        historyTokens: config.AGENT_CHAT_HISTORY_TOKEN_BUDGET,
        ledgerCeiling: config.PROMPT_TOKEN_LEDGER_CEILING,
        workingSetMaxFiles: config.AGENT_WORKING_SET_MAX_FILES,
        workingSetMaxChars: config.AGENT_WORKING_SET_MAX_CHARS,
      });
      const buildMs = performance.now() - t;
      const buildCommands = commands - before;
      // What counting every text of the prompt once costs (the builder counts each part, some more than once).
      const texts = messages.map((m) => (typeof m.content === 'string' ? m.content : ''));
      t = performance.now();
      for (const text of texts) countTokens(text);
      const tokenCountMs = performance.now() - t;
      out.push({
        step: input.step,
        agent: input.agent,
        readsMs,
        buildMs,
        buildCommands,
        tokenCountMs,
        promptChars: texts.reduce((n, x) => n + x.length, 0),
      });
    }
  } finally {
    client.off('commandStarted', count);
  }
  return out;
}

export function printStepCosts(label: string, costs: StepCost[]): void {
  console.log(`\nllmStep outside the model (${label}; reads and prompt building re-run, nothing written):`);
  for (const c of costs)
    console.log(
      `  step ${String(c.step).padEnd(2)} ${c.agent.padEnd(16)} Turn+Project ${c.readsMs.toFixed(0).padStart(4)} ms · buildAgentMessages ${c.buildMs.toFixed(0).padStart(5)} ms, ${c.buildCommands} commands · counting the prompt's ${c.promptChars} chars once ${c.tokenCountMs.toFixed(0)} ms`,
    );
}
