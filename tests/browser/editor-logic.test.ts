/**
 * The editor's rules without a browser (Jest): the autosave session (one save after a pause,
 * the draft kept until the server has the text, a save in flight never loses what is typed
 * meanwhile, offline kept and retried, a 409 stops saving, leaving saves by hand or closes the
 * burst), drafts, the three-way merge, and History's comparison by words in English and Chinese.
 */
import { ApiError } from '../../studio/src/api';
import { AutosaveSession, type SaveBody, type SaveReply, type SaveState } from '../../studio/src/editor/autosave';
import { DraftStore, type DraftStorage } from '../../studio/src/editor/drafts';
import { mergeEdits } from '../../studio/src/editor/merge';
import { compareProse, diffByWords, stretches } from '../../studio/src/editor/word-diff';

class MemoryStorage implements DraftStorage {
  readonly map = new Map<string, string>();
  getItem = (k: string) => this.map.get(k) ?? null;
  setItem = (k: string, v: string) => void this.map.set(k, v);
  removeItem = (k: string) => void this.map.delete(k);
}

/** A session over a fake server: `server` holds the head; `put` is each request as sent. */
function harness(opts: { online?: () => boolean } = {}) {
  let text = 'Once.';
  const server = { version: 1, content: 'Once.' };
  const puts: (SaveBody & { keepalive: boolean })[] = [];
  const states: SaveState['kind'][] = [];
  const conflicts: string[] = [];
  let fail: (() => Error) | null = null;
  let hold: Promise<void> | null = null;
  const drafts = new DraftStore(new MemoryStorage());
  const session = new AutosaveSession({
    fileId: 'f1',
    base: { ...server },
    read: () => text,
    put: async (body, { keepalive }): Promise<SaveReply> => {
      puts.push({ ...body, keepalive });
      if (hold) await hold;
      if (fail) throw fail();
      if (body.baseVersion !== server.version) throw new ApiError(409, 'version_conflict', 'stale');
      const changed = body.content !== server.content;
      if (changed) Object.assign(server, { version: server.version + 1, content: body.content });
      return { version: server.version, changed };
    },
    drafts,
    onState: (s) => states.push(s.kind),
    onConflict: (mine) => conflicts.push(mine),
    host: { isOnline: opts.online ?? (() => true), onOnline: () => () => undefined, idle: (fn) => fn() },
  });
  return {
    session,
    server,
    puts,
    states,
    conflicts,
    drafts,
    type(more: string) {
      text += more;
      session.edited();
    },
    failWith(f: (() => Error) | null) {
      fail = f;
    },
    holdSaves() {
      let release!: () => void;
      hold = new Promise<void>((r) => (release = r));
      return () => {
        hold = null;
        release();
      };
    },
  };
}

/** Lets the fake timers and the promises they start run. */
async function advance(ms: number) {
  await jest.advanceTimersByTimeAsync(ms);
}

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

test('typing keeps a draft at once and saves once after a pause, with the base version and autosave; the draft goes when the server has the text', async () => {
  const h = harness();
  h.type(' Upon');
  await advance(300);
  expect(h.drafts.read('f1')).toMatchObject({ baseVersion: 1, text: 'Once. Upon' });
  h.type(' a time.');
  await advance(1000);
  expect(h.puts).toHaveLength(0);
  await advance(600);
  expect(h.puts).toEqual([{ content: 'Once. Upon a time.', baseVersion: 1, autosave: true, keepalive: false }]);
  expect(h.server).toEqual({ version: 2, content: 'Once. Upon a time.' });
  expect(h.drafts.read('f1')).toBeNull();
  expect(h.states).toEqual(['pending', 'saving', 'saved']);
  expect(h.session.unsaved()).toBe(false);
});

test('text typed while a save is on its way goes in the next save, on the new base: nothing is lost', async () => {
  const h = harness();
  h.type(' A');
  const release = h.holdSaves();
  await advance(1600);
  expect(h.puts).toHaveLength(1);
  h.type(' B');
  release();
  await advance(0);
  expect(h.drafts.read('f1')).toMatchObject({ baseVersion: 2, text: 'Once. A B' });
  await advance(1600);
  expect(h.puts.map((p) => [p.content, p.baseVersion])).toEqual([
    ['Once. A', 1],
    ['Once. A B', 2],
  ]);
  expect(h.server.content).toBe('Once. A B');
  expect(h.drafts.read('f1')).toBeNull();
});

test('offline: the draft stays, the status says so, and the save is retried when back online', async () => {
  let online = false;
  const h = harness({ online: () => online });
  h.failWith(() => new TypeError('Failed to fetch'));
  h.type(' Rain.');
  await advance(1600);
  expect(h.session.current.kind).toBe('offline');
  expect(h.session.stuck()).toBe(true);
  h.type(' More rain.');
  await advance(1600);
  // No saves while offline beyond the retry schedule; the draft has everything.
  expect(h.drafts.read('f1')?.text).toBe('Once. Rain. More rain.');
  online = true;
  h.failWith(null);
  h.session.retry();
  await advance(0);
  expect(h.server.content).toBe('Once. Rain. More rain.');
  expect(h.session.current.kind).toBe('saved');
  expect(h.drafts.read('f1')).toBeNull();
});

test('a 409 hands the text to the conflict panel and saves nothing more until the author chooses', async () => {
  const h = harness();
  Object.assign(h.server, { version: 2, content: 'Once, by an agent.' });
  h.type(' Mine.');
  await advance(1600);
  expect(h.conflicts).toEqual(['Once. Mine.']);
  expect(h.session.current.kind).toBe('conflict');
  h.type(' More.');
  await advance(5000);
  expect(h.puts).toHaveLength(1);
  expect(h.drafts.read('f1')).toMatchObject({ baseVersion: 1, text: 'Once. Mine. More.' });
  // Overwrite knowingly: the author's text on the newer base, by hand.
  h.session.rebase({ version: 2, content: 'Once, by an agent.' });
  await h.session.save(true);
  expect(h.puts[1]).toMatchObject({ content: 'Once. Mine. More.', baseVersion: 2 });
  expect(h.puts[1]!.autosave).toBe(false);
  expect(h.server.content).toBe('Once. Mine. More.');
});

test('leaving saves unsaved text by hand; with nothing new it closes the open burst; a closing page keeps a long text in the draft', async () => {
  const h = harness();
  h.type(' A.');
  await advance(1600);
  h.session.leave(false);
  await advance(0);
  // The burst the autosave opened is closed by an unchanged save by hand.
  expect(h.puts.map((p) => [p.content, p.autosave ?? false])).toEqual([
    ['Once. A.', true],
    ['Once. A.', false],
  ]);

  const g = harness();
  g.type(' B.');
  g.session.leave(true);
  await advance(0);
  expect(g.puts).toEqual([{ content: 'Once. B.', baseVersion: 1, keepalive: true }]);
  expect(g.server.content).toBe('Once. B.');

  const long = harness();
  long.type(` ${'word '.repeat(13_000)}`);
  long.session.leave(true);
  expect(long.puts).toHaveLength(0);
  expect(long.drafts.read('f1')?.text.length).toBeGreaterThan(64_000);
});

test('a page that closes while offline sends nothing: the draft keeps the text for the next opening', async () => {
  const h = harness({ online: () => false });
  h.type(' Tide.');
  h.session.leave(true);
  await advance(0);
  expect(h.puts).toHaveLength(0);
  expect(h.server.content).toBe('Once.');
  expect(h.drafts.read('f1')).toMatchObject({ baseVersion: 1, text: 'Once. Tide.' });
});

test('a save does not drop the draft another tab of the same file kept while it was on its way', async () => {
  const h = harness();
  h.type(' Mine.');
  const release = h.holdSaves();
  await advance(1600);
  // Another tab keeps its own unsaved text for the same file.
  h.drafts.write('f1', 1, 'Once. Theirs, unsaved.');
  release();
  await advance(0);
  expect(h.server.content).toBe('Once. Mine.');
  expect(h.drafts.read('f1')?.text).toBe('Once. Theirs, unsaved.');
});

test('drafts: one per file with its base; settled only by the text the server has', () => {
  const drafts = new DraftStore(new MemoryStorage());
  drafts.write('a', 3, 'text one');
  drafts.settle('a', 'other text');
  expect(drafts.read('a')).toMatchObject({ baseVersion: 3, text: 'text one' });
  drafts.settle('a', 'text one');
  expect(drafts.read('a')).toBeNull();
  const full = new DraftStore({
    getItem: () => null,
    setItem: () => {
      throw new Error('QuotaExceededError');
    },
    removeItem: () => undefined,
  });
  expect(full.write('a', 1, 'x')).toBe(false);
});

test('merge: the author’s changes land on the newer text, even on neighbouring lines of a short text', () => {
  const base = 'The tide came in at dusk.\nMara counted the lamps.';
  expect(
    mergeEdits(
      base,
      'The tide came in at dusk.\nMara counted the lamps. None were lit.',
      'The tide came in early, at dusk.\nMara counted the lamps.',
    ),
  ).toBe('The tide came in early, at dusk.\nMara counted the lamps. None were lit.');
  expect(mergeEdits('A.', 'B.', 'C.')).toBeNull();
});

test('history compares by words: English words, Chinese words without spaces, an inserted paragraph beside nothing', () => {
  expect(diffByWords('The tide came in at dusk.', 'The tide came in early, at dusk.')).toEqual([
    { text: 'The tide came in ', kind: 'same' },
    { text: 'early, ', kind: 'add' },
    { text: 'at dusk.', kind: 'same' },
  ]);
  expect(diffByWords('潮水在黄昏时涌来。', '潮水在清晨时涌来。', 'zh')!.filter((p) => p.kind !== 'same')).toEqual([
    { text: '黄昏', kind: 'del' },
    { text: '清晨', kind: 'add' },
  ]);
  const c = compareProse(
    'A.\nThe tide came in at dusk.\nB.',
    'A.\nNew paragraph.\nThe tide came in early, at dusk.\nB.',
  );
  expect(
    c.rows.map((r) => [
      r.kind,
      r.left?.map((p) => p.text).join('') ?? null,
      r.right?.map((p) => p.text).join('') ?? null,
    ]),
  ).toEqual([
    ['same', 'A.', 'A.'],
    ['change', null, 'New paragraph.'],
    ['change', 'The tide came in at dusk.', 'The tide came in early, at dusk.'],
    ['same', 'B.', 'B.'],
  ]);
  expect(c.rows[2]!.right!.filter((p) => p.kind === 'add').map((p) => p.text)).toEqual(['early, ']);
  expect(
    c.inline
      .filter((l) => l.changed)
      .map((l) => l.pieces.filter((p) => p.kind !== 'same').map((p) => `${p.kind}:${p.text}`)),
  ).toEqual([['add:New paragraph.'], ['add:early, ']]);
  // Unchanged paragraphs far from a change fold away; two around it stay.
  const paras = Array.from({ length: 20 }, (_, i) => `Paragraph ${i}.`);
  const changed = [...paras];
  changed[10] = 'Paragraph ten.';
  const s = stretches(compareProse(paras.join('\n'), changed.join('\n')).rows, (r) => r.kind !== 'same');
  expect(s.map((x) => [x.folded, x.items.length])).toEqual([
    [true, 8],
    [false, 5],
    [true, 7],
  ]);
});
