/**
 * The text checkpoint a retried LLM step goes on from (src/activities/step/step-partial.ts), on
 * the real Redis: written with each batch of events in one transaction, at byte offsets.
 */
import { Redis } from 'ioredis';
import { earlierAttempt, StepCheckpoint } from '../../src/activities/step/step-partial';
import { StreamPublisher } from '../../src/streams/redis-streams';
import { draft } from '../../src/core/events';
import { loadConfig } from '../../src/config';

const redis = new Redis(loadConfig({ env: { ...process.env, SCRIPTORIUM_ENV_PRIORITY: 'none' } }).REDIS_URL);
const key = { prefix: `test:partial:${Date.now().toString(36)}:`, turnId: 't1', step: 3 };
afterAll(async () => {
  const keys = await redis.keys(`${key.prefix}*`);
  if (keys.length) await redis.del(...keys);
  redis.disconnect();
});

test('each batch carries the text behind it; a resent batch writes the same bytes again; a retry reads it back', async () => {
  const publisher = new StreamPublisher(redis, `${key.prefix}stream`, 1, { maxLen: 1000 });
  const first = new StepCheckpoint(redis, key, 1, 60, '');
  let text = '<file>\n雨已经下了三天。';
  const batch = first.alongside(text)!;
  await publisher.publish([draft('content', { delta: 'x' })], batch);
  // The same batch again (a client library resending it): offsets make it a no-op.
  await redis.multi().setrange(`${key.prefix}partial:t1:3:1`, 0, '<file>\n雨已经下了三天。').exec();
  text += 'Mara opened the door.';
  await publisher.publish([draft('content', { delta: 'y' })], first.alongside(text));
  expect(first.alongside(text)).toBeUndefined();
  expect(await earlierAttempt(redis, key, 2)).toEqual({ resume: true, text });
  // The second attempt starts from that text, and a third reads the second's progress.
  const second = new StepCheckpoint(redis, key, 2, 60, text);
  await second.begin(text);
  await publisher.publish([draft('content', { delta: 'z' })], second.alongside(`${text} 她数着灯。`));
  expect(await earlierAttempt(redis, key, 3)).toEqual({ resume: true, text: `${text} 她数着灯。` });
});

test('nothing streamed, a tool call begun, or a checkpoint with a lost stretch: the step starts over', async () => {
  const k = { ...key, step: 4 };
  expect(await earlierAttempt(redis, k, 1)).toEqual({ resume: false, reason: 'nothing_streamed' });
  expect(await earlierAttempt(redis, k, 2)).toEqual({ resume: false, reason: 'nothing_streamed' });
  const withCall = new StepCheckpoint(redis, k, 1, 60, '');
  await redis.multi().set(`${key.prefix}partial:t1:4:1`, 'Opening the file').exec();
  withCall.markToolCall();
  await withCall.settle();
  expect(await earlierAttempt(redis, k, 2)).toEqual({ resume: false, reason: 'tool_call' });
  // A Redis crash lost the tail, the attempt wrote on past it: the gap reads back as NUL bytes.
  const k5 = { ...key, step: 5 };
  await redis.setrange(`${key.prefix}partial:t1:5:1`, 10, 'later text');
  expect(await earlierAttempt(redis, k5, 2)).toEqual({ resume: false, reason: 'damaged' });
});
