/**
 * The turn's stored context, the one every step of a turn is shown: built by the first step
 * that needs it (assembler.ts), put on record once (seen versions, then the document), and read
 * back by every later step and retry; a worker keeps the contexts it stored or read.
 */
import type { Models, TurnContextDoc } from '../../db/models';
import { insertOnce } from '../../db/models';
import { quiet } from '../../core/quiet';
import type { WorkerCaches } from '../worker-caches';
import { assembleTurnContext, type ContextSettings } from './assembler';
import { holdsTurnSources } from './prefetch';

/**
 * Records in one bulk write that the model saw these versions in full (what `rememberSeen`
 * does per file): a long book shows dozens of files, and one command per file adds up.
 */
async function rememberSeenAll(
  models: Models,
  turnId: string,
  shown: { fileId: string; version: number }[],
): Promise<void> {
  if (!shown.length) return;
  await models.ReadSnapshot.bulkWrite(
    shown.map((s) => ({
      // Same record as rememberSeen: the earliest version shown this request (its start) is what stale_content compares with.
      updateOne: {
        filter: { _id: `${turnId}:${s.fileId}` },
        update: { $min: { version: s.version }, $setOnInsert: { turnId, fileId: s.fileId, kind: 'context' } },
        upsert: true,
      },
    })),
    { ordered: false },
  );
}

/** A step's view of the turn's context, and the storing of it when this step built it. */
export interface StepContext {
  context: TurnContextDoc;
  /**
   * Puts the context on record (seen versions, then the document) and settles once it is;
   * the first call starts it, later calls return the same promise. A step that built the
   * context starts this once its request is out and awaits it before it records anything (its
   * answer, a file, a tool call). On the path to the first token, storing a long book's
   * context took 50–70 ms (bench:turn, accumulated data); started beside the step's own reads
   * and the request, it still slowed them by 10–60 ms on FerretDB. Resolves at once for a
   * context read back.
   */
  store: () => Promise<void>;
}

/** The store of a context that is already on record (read back, or cached once stored). */
const onRecord = (): Promise<void> => Promise.resolve();

/**
 * The turn's stored context, built by the first step that needs it. A retry or a later step
 * reads it back; two builders racing both insert the same `_id`, and the loser goes on only
 * if the winner's context is the one it sent (otherwise it fails and its retry reads the winner's).
 * `language`: the session's reply language, which the working set's lines are written in.
 */
export async function ensureTurnContext(
  models: Models,
  caches: WorkerCaches,
  settings: ContextSettings,
  turnId: string,
  scope: string,
  language?: 'zh' | 'en',
): Promise<StepContext> {
  // Turn contexts this worker built and stored, or read back: a stored context never changes (worker-caches.ts).
  const { turnContexts } = caches;
  const cached = turnContexts.get(turnId);
  if (cached) return { context: cached, store: onRecord };
  const storedRead = models.TurnContext.findById(turnId).lean() as Promise<TurnContextDoc | null>;
  // A worker that holds the turn's early reads opened the turn, and this is its first step: a
  // stored context can only be an earlier attempt's (rare), so the context is built while that
  // is looked for, not after (one MongoDB round trip off the first step's way to its request).
  // Building only reads; a build a stored context makes moot is dropped. Elsewhere (another
  // worker, a later step) the stored context is the usual case, and building it would read
  // the whole project in vain.
  const building = holdsTurnSources(caches.turnSources, turnId)
    ? quiet(assembleTurnContext(models, caches, settings, turnId, scope, language))
    : null;
  const stored = await storedRead;
  if (stored) {
    turnContexts.set(turnId, stored);
    return { context: stored, store: onRecord };
  }
  const built = await (building ?? assembleTurnContext(models, caches, settings, turnId, scope, language));
  // Cached only once stored: a step retried in this worker after a failed store (or one that
  // failed before it stored) must store it. The step awaits it; quiet: not unhandled when the
  // model call fails first.
  let storing: Promise<void> | null = null;
  const store = () =>
    (storing ??= quiet(storeTurnContext(models, built).then(() => void turnContexts.set(turnId, built))));
  return { context: built, store };
}

/**
 * Puts a context this step built on record. The seen versions go first, so a crash in between
 * cannot leave a stored context whose files were never marked seen (stale-anchor checks key
 * on these versions). Rejects when another attempt stored a different context first: this
 * attempt's prompt then showed the model something no later step will see.
 */
export async function storeTurnContext(models: Models, built: TurnContextDoc): Promise<void> {
  const turnId = String(built._id);
  await rememberSeenAll(models, turnId, built.shown as { fileId: string; version: number }[]);
  if (!(await insertOnce(models.TurnContext, built))) {
    const winner = (await models.TurnContext.findById(turnId).lean()) as TurnContextDoc | null;
    if (!winner || promptView(winner) !== promptView(built))
      throw new Error(
        `another attempt stored a different context for turn ${turnId} first; this step is retried on that one`,
      );
  }
}

/** What of a context reaches the model's prompt. */
function promptView(c: TurnContextDoc): string {
  return JSON.stringify([
    c.skillCatalog ?? '',
    c.context,
    c.contextMoving ?? '',
    c.userContent,
    (c.history ?? []).map((m) => [m.role, m.content]),
  ]);
}
