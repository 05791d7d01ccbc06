/**
 * A short activity that fails for good (run as a local activity since h9) ends the turn as
 * `failed` through finalize, like a failed model step: the author sees why, the turn's record
 * says failed, and the session is free for the next turn. Its failure reaches the workflow as
 * the activity's own error, not as an ActivityFailure; before h13 that failed the workflow
 * itself, leaving the turn "running" and the session locked.
 */
import { ApplicationFailure } from '@temporalio/activity';
import {
  createHarness,
  createProjectAndSession,
  type Harness,
  postTurn,
  turnEvents,
  waitTurn,
} from '../helpers/harness';
import { waitFor } from './job-helpers';

let h: Harness;
let breakPrepare = false;
/** While set, announceTurn and prepareTurn wait for it (the turn's first local activities stay in flight). */
let holdAnnounce: { released: Promise<void>; reached: (point: string) => void } | null = null;
beforeAll(async () => {
  h = await createHarness({
    faults: {
      hit(point) {
        if (point === 'turn.prepare' && breakPrepare)
          throw ApplicationFailure.nonRetryable('the turn could not be prepared', 'PrepareBroken');
      },
      async pause(point) {
        if ((point !== 'turn.announce' && point !== 'turn.prepare') || !holdAnnounce) return;
        holdAnnounce.reached(point);
        await holdAnnounce.released;
      },
    },
  });
});
afterAll(async () => {
  await h?.close();
});

test('a local activity that fails for good ends the turn as failed, with the reason, and frees the session', async () => {
  const { sessionId } = await createProjectAndSession(h);
  breakPrepare = true;
  const turnId = await postTurn(h, sessionId, 'Write a short scene on the pier.');
  const outcome = await waitTurn(h, turnId);
  breakPrepare = false;
  expect(outcome.status).toBe('failed');
  expect(await h.runtime.models.Turn.findById(turnId).lean()).toMatchObject({ status: 'failed' });
  const events = await turnEvents(h, turnId);
  expect(events.find((e) => e.type === 'error')).toMatchObject({
    data: { code: 'activity_failed', message: 'the turn could not be prepared' },
  });
  expect(events[events.length - 1]).toMatchObject({ type: 'done', data: { status: 'failed' } });
  expect(await h.runtime.models.SessionLock.countDocuments({ _id: sessionId })).toBe(0);
  // The next turn runs.
  expect((await waitTurn(h, await postTurn(h, sessionId, 'Write a short scene on the pier.'))).status).toBe(
    'completed',
  );
}, 60_000);

test('a turn cancelled while its first local activities run is finalized as interrupted (a job cancelling its chapter at once)', async () => {
  const { sessionId } = await createProjectAndSession(h);
  let release!: () => void;
  const reached = new Set<string>();
  holdAnnounce = { released: new Promise<void>((r) => (release = r)), reached: (point) => reached.add(point) };
  try {
    const turnId = await postTurn(h, sessionId, 'Write a short scene on the pier.');
    await waitFor('announceTurn and prepareTurn in flight', async () => reached.size === 2, 10_000, 20);
    await h.runtime.temporal.workflow.getHandle(`turn-${turnId}`).cancel();
    const outcome = await waitTurn(h, turnId);
    expect(outcome.status).toBe('interrupted');
    expect(await h.runtime.models.Turn.findById(turnId).lean()).toMatchObject({ status: 'interrupted' });
    expect(await h.runtime.models.SessionLock.countDocuments({ _id: sessionId })).toBe(0);
  } finally {
    holdAnnounce = null;
    release();
  }
}, 60_000);
