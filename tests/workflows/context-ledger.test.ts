/**
 * The shared prompt ledger: system prompt, context, working set and
 * the author's message, teammates' text, packets and the run's own tool loop all count
 * against PROMPT_TOKEN_LEDGER_CEILING, and only the history window gives way as the loop grows.
 */
import { newId } from '../../src/db/models';
import { countPromptTokens } from '../../src/offline-model/tokens';
import type { ChatCompletionRequest } from '../../src/offline-model/types';
import {
  api,
  createHarness,
  createProjectAndSession,
  expectScriptFullyUsed,
  type Harness,
  runTurn,
} from '../helpers/harness';
import { call, requestsOf, router, say } from '../helpers/script';

const CEILING = 4000;
const READS = 8;
let h: Harness;
beforeAll(async () => {
  h = await createHarness({
    config: {
      PROMPT_TOKEN_LEDGER_CEILING: String(CEILING),
      AGENT_CONTEXT_TOKEN_BUDGET: '1000',
      AGENT_CHAT_HISTORY_TOKEN_BUDGET: '3000',
      REVIEW_WORD_THRESHOLD: '100000',
    },
  });
});
afterAll(async () => h?.close());
afterEach(() => expectScriptFullyUsed(h));

const line = (who: string, i: number): string =>
  Array.from({ length: 40 }, (_, k) => `${who} said thing ${i}.${k} about the tide.`).join(' ');

test('the ledger never exceeds its ceiling: as the tool loop grows the history shrinks first, then the oldest tool results', async () => {
  const { sessionId, projectId } = await createProjectAndSession(h);
  const log = await api<{ id: string }>(h, 'POST', '/api/v1/files', {
    projectId,
    type: 'draft',
    title: 'Logbook',
    content: Array.from({ length: 30 }, (_, i) => `Entry ${i}: the wind turned north-east at bell ${i % 8}.`).join(
      '\n',
    ),
  });
  // A long earlier conversation in this session (written directly: twelve turns of chat would only slow the test).
  const { Message, Session } = h.runtime.models;
  const earlierTurns = Array.from({ length: 6 }, () => newId());
  for (let i = 1; i <= 12; i++)
    await Message.create({
      sessionId,
      projectId,
      turnId: earlierTurns[Math.floor((i - 1) / 2)],
      role: i % 2 ? 'user' : 'assistant',
      content: line(i % 2 ? 'Author' : 'Writer', i),
      seq: i,
      key: `earlier:${sessionId}:${i}`,
    });
  await Session.updateOne({ _id: sessionId }, { $set: { messageSeq: 12 } });

  h.model.script([
    router({ current_agent: 'writer', workflow_plan: 'quick' }),
    // Eight reads: enough tool loop to use up the history and then press on the oldest results.
    ...Array.from({ length: READS }, () => call('writer', 'query_files', { id: log.body.id })),
    say('writer', `I have read the logbook ${READS} times.`),
  ]);
  await runTurn(h, sessionId, 'Read the logbook carefully before we go on.');
  const steps = requestsOf(h.model, 'writer');
  expect(steps).toHaveLength(READS + 1);
  const used = steps.map((s) => countPromptTokens({ messages: s.messages } as ChatCompletionRequest));
  for (const u of used) expect(u).toBeLessThanOrEqual(CEILING);
  // The ledger was used, not left idle: the first step filled it close to the ceiling.
  expect(used[0]).toBeGreaterThan(CEILING * 0.8);
  // The earlier conversation is what gave way: fewer history messages at every step until none is left.
  const historyCount = steps.map(
    (s) => s.messages.filter((m) => /(Author|Writer) said thing/.test(String(m.content))).length,
  );
  expect(historyCount[0]).toBeGreaterThanOrEqual(4);
  for (let i = 1; i < historyCount.length; i++) {
    if (historyCount[i - 1]! > 0) expect(historyCount[i]).toBeLessThan(historyCount[i - 1]!);
    else expect(historyCount[i]).toBe(0);
  }
  // Only then, the oldest tool results of the run give way; the latest one is always whole.
  const elided = steps.map(
    (s) => s.messages.filter((m) => m.role === 'tool' && String(m.content).includes('"elided"')).length,
  );
  const firstElision = elided.findIndex((n) => n > 0);
  expect(firstElision).toBeGreaterThan(0);
  expect(historyCount[firstElision]).toBe(0);
  for (const s of steps.slice(1)) {
    const tools = s.messages.filter((m) => m.role === 'tool');
    expect(String(tools[tools.length - 1]!.content)).toContain('Entry 29');
  }
  // The context and the author's message stayed whole at every step.
  for (const s of steps) {
    expect(s.messages[1]!.content).toBe(steps[0]!.messages[1]!.content);
    expect(
      s.messages.some((m) => m.role === 'user' && m.content === 'Read the logbook carefully before we go on.'),
    ).toBe(true);
  }
});
