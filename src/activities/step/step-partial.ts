/**
 * The text an LLM step's attempt has streamed, kept beside its events so a retried attempt
 * can go on from it.
 *
 * Each attempt writes its model text (the raw answer, `<file>` tags included) to a Redis
 * string of its own, in the same transaction as every batch of events it publishes: the
 * checkpoint holds exactly the text whose events are on the stream (the text an author has
 * seen), never more and never less. Fed to the step's text processors again, it rebuilds
 * what they published and what they still held back. Byte offsets (SETRANGE) make a resent
 * batch write the same bytes again instead of appending them twice.
 *
 * A retried attempt reads the newest earlier attempt's checkpoint and starts its own with
 * that text (or empty, when it starts over), so a third attempt goes on from the second's
 * progress, and an earlier attempt still running somewhere cannot change what it reads.
 * A step that began streaming a tool call's arguments is marked: it starts over.
 */
import type { Redis } from 'ioredis';
import type { Alongside } from '../../streams/redis-streams';

export interface StepKey {
  prefix: string;
  turnId: string;
  step: number;
}

const textKey = (k: StepKey, attempt: number) => `${k.prefix}partial:${k.turnId}:${k.step}:${attempt}`;
const callsKey = (k: StepKey, attempt: number) => `${textKey(k, attempt)}:calls`;

/** What earlier attempts left: the text to go on from, or why the step starts over. */
export type EarlierAttempt =
  { resume: true; text: string } | { resume: false; reason: 'nothing_streamed' | 'tool_call' | 'damaged' };

/** The newest earlier attempt's checkpoint (attempts that never got to write one are skipped). */
export async function earlierAttempt(redis: Redis, key: StepKey, attempt: number): Promise<EarlierAttempt> {
  const earlier = Array.from({ length: attempt - 1 }, (_, i) => attempt - 1 - i);
  if (earlier.length === 0) return { resume: false, reason: 'nothing_streamed' };
  const pipeline = redis.pipeline();
  for (const a of earlier) pipeline.get(textKey(key, a)).exists(callsKey(key, a));
  const replies = ((await pipeline.exec()) ?? []).map(([err, value]) => {
    if (err) throw err;
    return value;
  });
  for (let i = 0; i < earlier.length; i++) {
    const text = replies[2 * i] as string | null;
    if (text === null) continue;
    if (replies[2 * i + 1]) return { resume: false, reason: 'tool_call' };
    // A Redis crash can lose a checkpoint's tail while the attempt writes on past it: the gap
    // reads back as NUL bytes. That text is not what the author saw; start over.
    if (text.includes('\u0000')) return { resume: false, reason: 'damaged' };
    return text ? { resume: true, text } : { resume: false, reason: 'nothing_streamed' };
  }
  return { resume: false, reason: 'nothing_streamed' };
}

/** One attempt's checkpoint: started from the kept text, grown with each published batch. */
export class StepCheckpoint {
  private bytes: number;
  private chars: number;
  private marking: Promise<unknown> | null = null;

  constructor(
    private readonly redis: Redis,
    private readonly key: StepKey,
    private readonly attempt: number,
    private readonly ttlSeconds: number,
    base: string,
  ) {
    this.chars = base.length;
    this.bytes = Buffer.byteLength(base);
  }

  /** Written before the attempt announces itself: a later attempt reads this one's start. */
  async begin(base: string): Promise<void> {
    await this.redis.set(textKey(this.key, this.attempt), base, 'EX', this.ttlSeconds);
  }

  /**
   * The writes for a batch cut when the model's text so far is `text`: the part not yet
   * checkpointed, at its byte offset.
   */
  alongside(text: string): Alongside | undefined {
    if (text.length === this.chars) return undefined;
    const added = text.slice(this.chars);
    const offset = this.bytes;
    this.chars = text.length;
    this.bytes += Buffer.byteLength(added);
    const key = textKey(this.key, this.attempt);
    // The first attempt's key is made by its first batch; later attempts' by begin().
    return (tx) => (offset === 0 ? tx.set(key, added, 'EX', this.ttlSeconds) : tx.setrange(key, offset, added));
  }

  /** The model began a tool call: this attempt's text is not resumed (awaited by {@link settle}). */
  markToolCall(): void {
    this.marking ??= this.redis.set(callsKey(this.key, this.attempt), '1', 'EX', this.ttlSeconds);
  }

  async settle(): Promise<void> {
    await this.marking;
  }
}
