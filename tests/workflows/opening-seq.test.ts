/**
 * A turn's input carries its author's message and the sequence number that message got when
 * it was opened (TurnInput.message, .openingSeq), through the API and through a job's chapter
 * turns: the workflow routes the message without reading it back, and prepareTurn reads the
 * session's latest messages from that number instead of reading the session's counter first.
 */
import { arrayFromPayloads, defaultPayloadConverter } from '@temporalio/common';
import { Worker } from '@temporalio/worker';
import type { TurnInput } from '../../src/core/turn/turn-types';
import {
  createHarness,
  createProjectAndSession,
  expectScriptFullyUsed,
  type Harness,
  runTurn,
  testBundle,
} from '../helpers/harness';
import { router, say } from '../helpers/script';
import { startJob, waitJob } from './job-helpers';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

async function startedInput(turnId: string): Promise<TurnInput> {
  const history = await h.runtime.temporal.workflow.getHandle(`turn-${turnId}`).fetchHistory();
  const payloads = history.events![0]!.workflowExecutionStartedEventAttributes!.input!.payloads!;
  return arrayFromPayloads(defaultPayloadConverter, payloads)[0] as TurnInput;
}

async function authorSeq(turnId: string): Promise<number> {
  return (await authorMessage(turnId)).seq;
}

async function authorMessage(turnId: string) {
  return (await h.runtime.models.Message.findOne({ turnId, role: 'user' }).lean())!;
}

test('turns started through the API name their author message’s sequence number, and replay', async () => {
  const { sessionId } = await createProjectAndSession(h);
  h.model.script([
    router({ current_agent: 'writer', workflow_plan: 'quick' }),
    say('writer', 'Shall I start with the harbour?'),
  ]);
  const first = await runTurn(h, sessionId, 'Sketch an opening scene');
  h.model.script([say('writer', 'The harbour it is.')]);
  const second = await runTurn(h, sessionId, 'Yes');
  expectScriptFullyUsed(h);
  const inputs = [await startedInput(first.turnId), await startedInput(second.turnId)];
  expect(inputs.map((i) => i.openingSeq)).toEqual([await authorSeq(first.turnId), await authorSeq(second.turnId)]);
  expect(inputs.map((i) => i.message)).toEqual(['Sketch an opening scene', 'Yes']);
  // After the first turn's request and reply, the second turn's message is the session's third.
  expect(inputs[1]!.openingSeq).toBe(3);
  // "Yes" confirmed the first turn's one proposal, with no router call: prepareTurn found the
  // previous turn's reply in the messages it read from that number.
  expect(second.turn.routing).toMatchObject({ current_agent: 'writer', source: 'confirm_proposal' });
  const history = await h.runtime.temporal.workflow.getHandle(`turn-${second.turnId}`).fetchHistory();
  await Worker.runReplayHistory(
    { workflowBundle: testBundle(), replayName: 'opening-seq' },
    history,
    `turn-${second.turnId}`,
  );
});

test('a job’s chapter turns name theirs too', async () => {
  const { projectId } = await createProjectAndSession(h);
  const { jobId } = await startJob(h, { projectId, chapters: { from: 1, to: 2 }, wordsPerChapter: 300 });
  expect(await waitJob(h, jobId)).toMatchObject({ status: 'completed', chaptersDone: 2 });
  const turns = await h.runtime.models.Turn.find({ jobId }).select({ _id: 1 }).lean();
  expect(turns.length).toBeGreaterThanOrEqual(2);
  for (const t of turns) {
    const turnId = String(t._id);
    const input = await startedInput(turnId);
    expect(input.openingSeq).toBe(await authorSeq(turnId));
    // The chapter instruction the job recorded as the turn's author message.
    expect(input.message).toBe((await authorMessage(turnId)).content);
    expect(input.message.length).toBeGreaterThan(10);
  }
});
