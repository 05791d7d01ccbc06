/**
 * The pure rules of context assembly: priority tiers with importance, named characters,
 * previous and sibling chapters; BM25 retrieval over CJK text; packing into a budget with
 * the fragment rule; the working set's limits and the turn (not run) window.
 */
import { type ContextItem, MeasureCache, pack } from '../../src/activities/context/budget';
import { renderManifest } from '../../src/activities/context/manifest';
import { entityNames, type ManifestFile, Priority, prioritize } from '../../src/activities/context/priorities';
import { chunkText, pickSnippets, rankChunks, terms } from '../../src/activities/context/retrieval';
import { countTokens, measureShared, SHARED_MEASURE_MIN_CHARS } from '../../src/activities/context/tokens';
import { renderWorkingSet, workingSetIds } from '../../src/activities/context/working-set';
import { createWorkerCaches } from '../../src/activities/worker-caches';

let n = 0;
const file = (title: string, type: string, extra: Partial<ManifestFile> = {}): ManifestFile => ({
  id: (++n).toString(16).padStart(24, '0'),
  title,
  type,
  parentId: null,
  order: n,
  importance: null,
  ...extra,
});

describe('priorities', () => {
  const chapters = Array.from({ length: 20 }, (_, i) => file(`第${i + 1}章`, 'draft'));
  const hero = file('林夏（女主角）', 'character', { importance: 'high' });
  const minor = file('卖花的老人', 'character', { importance: 'low' });
  const named = file('赵云舟', 'character', { importance: 'low' });
  const plain = file('陈默', 'character');
  const world = file('北境律法', 'setting', { importance: 'high' });
  const town = file('雾港小镇', 'setting');
  const weather = file('天气备忘', 'setting', { importance: 'low' });
  const outline = file('大纲', 'outline');
  const files = [...chapters, plain, hero, minor, named, world, town, weather, outline];
  const tier = (c: ReturnType<typeof prioritize>['candidates'], id: string) => c.find((x) => x.fileId === id);

  test('a character named in the query goes to the front of CONSTRAINT, ahead of more important cards', () => {
    const { candidates, names } = prioritize({
      files,
      focusFileId: null,
      attachedFileIds: [],
      query: '写赵云舟在渡口等船的一场戏',
    });
    const constraint = candidates.filter((c) => c.priority === Priority.CONSTRAINT).map((c) => c.fileId);
    expect(constraint[0]).toBe(named.id);
    expect(constraint.indexOf(named.id)).toBeLessThan(constraint.indexOf(hero.id));
    expect(names).toEqual(['赵云舟']);
    const both = prioritize({ files, focusFileId: null, attachedFileIds: [], query: '写赵云舟和林夏重逢' });
    expect(both.candidates.slice(0, 2).map((c) => c.reason)).toEqual(['named', 'named']);
    // Cards and settings come before the previous chapter within the tier.
    expect(constraint.indexOf(world.id)).toBeLessThan(constraint.indexOf(chapters[19]!.id));
  });

  test('importance: high settings CONSTRAINT, medium (or unset) RELEVANT, low INSPIRATION; every character CONSTRAINT', () => {
    const { candidates } = prioritize({ files, focusFileId: null, attachedFileIds: [], query: 'continue' });
    expect(tier(candidates, world.id)?.priority).toBe(Priority.CONSTRAINT);
    expect(tier(candidates, town.id)?.priority).toBe(Priority.RELEVANT);
    expect(tier(candidates, weather.id)?.priority).toBe(Priority.INSPIRATION);
    // Characters are constraints, high ones first; a low-importance walk-on is one too, after them.
    const cards = candidates
      .filter((c) => c.priority === Priority.CONSTRAINT && c.reason === 'character')
      .map((c) => c.fileId);
    expect(cards).toEqual([hero.id, plain.id, minor.id, named.id]);
    expect(tier(candidates, minor.id)?.priority).toBe(Priority.CONSTRAINT);
    expect(tier(candidates, named.id)?.priority).toBe(Priority.CONSTRAINT);
  });

  test('the focus file is CRITICAL, its previous chapter CONSTRAINT and its nearest siblings RELEVANT (following first at equal distance)', () => {
    const focus = chapters[9]!; // 第10章
    const { candidates } = prioritize({
      files,
      focusFileId: focus.id,
      attachedFileIds: [chapters[0]!.id],
      query: '润色这一章',
    });
    expect(candidates.slice(0, 2).map((c) => [c.fileId, c.priority])).toEqual([
      [focus.id, Priority.CRITICAL],
      [chapters[0]!.id, Priority.CRITICAL],
    ]);
    expect(tier(candidates, chapters[8]!.id)).toMatchObject({
      priority: Priority.CONSTRAINT,
      reason: 'previous_chapter',
    });
    const siblings = candidates.filter((c) => c.reason === 'sibling').map((c) => c.fileId);
    expect(siblings).toEqual([chapters[10]!.id, chapters[11]!.id, chapters[7]!.id, chapters[12]!.id]);
    expect(tier(candidates, chapters[19]!.id)?.priority).toBe(Priority.INSPIRATION);
  });

  test('a chapter asked for by number anchors the previous chapter; with no anchor the latest chapter is the previous one', () => {
    const asked = prioritize({ files, focusFileId: null, attachedFileIds: [], query: 'Write 第15章 now' });
    expect(asked.candidates.find((c) => c.reason === 'previous_chapter')?.fileId).toBe(chapters[13]!.id);
    expect(asked.candidates.find((c) => c.reason === 'asked_chapter')?.fileId).toBe(chapters[14]!.id);
    // A job's chapter message names the chapter to write first and the one before it later:
    // the anchor is the first, so the real previous chapter ranks as one.
    const job = prioritize({
      files,
      focusFileId: null,
      attachedFileIds: [],
      query: 'Write Chapter 16 of the story now.\nPrevious chapter: "第15章" — pick up where it ends.',
    });
    expect(job.candidates.find((c) => c.reason === 'previous_chapter')?.fileId).toBe(chapters[14]!.id);
    expect(job.candidates.find((c) => c.reason === 'asked_chapter')?.fileId).toBe(chapters[15]!.id);
    const none = prioritize({ files, focusFileId: null, attachedFileIds: [], query: 'keep going' });
    expect(none.candidates.find((c) => c.reason === 'previous_chapter')?.fileId).toBe(chapters[19]!.id);
  });

  test('entity names: the title without bracketed notes and its parts; generic words and one-letter names are not names', () => {
    expect(entityNames('林夏（女主角）')).toEqual(expect.arrayContaining(['林夏']));
    expect(entityNames('Character: Mara Voss')).toEqual(expect.arrayContaining(['Mara', 'Voss', 'Mara Voss']));
    expect(entityNames('Character: Mara Voss')).not.toContain('Character');
  });
});

describe('retrieval', () => {
  test('CJK text is indexed as bigrams, so a Chinese query finds the passage that mentions it', () => {
    expect(terms('林夏推门')).toEqual(['林夏', '夏推', '推门']);
    const ranked = rankChunks(
      [
        { id: 'a', title: '第1章', content: '风雪夜里，老周在渡口等船。', version: 1 },
        { id: 'b', title: '第2章', content: '她在灯塔下捡到一枚铜钥匙，钥匙上刻着北境的纹章。', version: 1 },
      ],
      { text: '铜钥匙是谁留下的', names: [] },
    );
    expect(ranked[0]!.fileId).toBe('b');
  });

  test('a chunk naming a character named in the query gets the name bonus', () => {
    const files = [
      { id: 'a', title: 'x', content: 'The lighthouse keeper counted the ships at dusk.', version: 1 },
      { id: 'b', title: 'y', content: 'Mara counted the ships at dusk from the lighthouse.', version: 1 },
    ];
    const plain = rankChunks(files, { text: 'Mara lighthouse ships', names: [] });
    const boosted = rankChunks(files, { text: 'Mara lighthouse ships', names: ['Mara'] });
    const score = (r: typeof plain, id: string) => r.find((c) => c.fileId === id)!.score;
    expect(score(boosted, 'b') / score(boosted, 'a')).toBeGreaterThan(score(plain, 'b') / score(plain, 'a'));
  });

  test('a project index reused across turns follows file versions: new text is found, replaced and deleted text is not', () => {
    // One worker's indexes, under the project's key.
    const kept = { indexes: createWorkerCaches().retrievalIndexes, key: `project-${Date.now()}` };
    const v1 = [
      { id: 'a', title: 'a', content: 'The brass key lies under the ferry bell.', version: 1 },
      { id: 'b', title: 'b', content: 'Gulls over the salt flats.', version: 1 },
    ];
    expect(rankChunks(v1, { text: 'brass key', names: [] }, kept).map((c) => c.fileId)).toEqual(['a']);
    const v2 = [{ id: 'a', title: 'a', content: 'The copper lantern hangs in the bell tower.', version: 2 }];
    expect(rankChunks(v2, { text: 'brass key', names: [] }, kept)).toEqual([]);
    expect(rankChunks(v2, { text: 'copper lantern', names: [] }, kept).map((c) => c.fileId)).toEqual(['a']);
    expect(rankChunks(v2, { text: 'gulls salt', names: [] }, kept)).toEqual([]);
  });

  test('a worker keeps the indexes of 50 projects at once, sized by what each holds once it is up to date', () => {
    const indexes = createWorkerCaches().retrievalIndexes;
    const chapter = (p: number, words: number) => [
      { id: `c${p}`, title: 'Chapter 1', content: `Mara rings the ferry bell ${p}. `.repeat(words), version: words },
    ];
    // 50 turns (or 20 jobs) in as many projects: no project's index pushes out another's.
    for (let p = 0; p < 50; p++)
      rankChunks(chapter(p, 10), { text: 'ferry bell', names: [] }, { indexes, key: `project-${p}` });
    expect([...indexes.keys()].sort()).toEqual(Array.from({ length: 50 }, (_, p) => `project-${p}`).sort());
    // The size is taken after the index follows the files: a longer chapter weighs more.
    const before = indexes.calculatedSize;
    rankChunks(chapter(0, 400), { text: 'ferry bell', names: [] }, { indexes, key: 'project-0' });
    expect(indexes.calculatedSize).toBeGreaterThan(before + 4 * 390 * 'Mara rings the ferry bell 0. '.length);
  });

  test('chunks break at paragraphs; snippets skip what is already shown and cap per file', () => {
    const text = Array.from({ length: 8 }, (_, i) => `Paragraph ${i} `.repeat(30)).join('\n\n');
    const chunks = chunkText('f', text);
    expect(chunks.length).toBeGreaterThan(3);
    for (const c of chunks) expect(text.slice(c.start, c.end).trim()).toBe(c.text);
    const ranked = chunks.map((c, i) => ({ ...c, score: 10 - i }));
    const picked = pickSnippets(ranked, (c) => c.seq === 0, 5, 2);
    expect(picked.map((c) => c.seq)).toEqual([1, 2]);
  });
});

describe('budget', () => {
  /** One assembly's measurements, in a worker of its own. */
  const measures = () => new MeasureCache(createWorkerCaches().measuredTexts);
  const item = (title: string, text: string, priority: Priority, kind: 'file' | 'snippet' = 'file'): ContextItem => ({
    fileId: title.padStart(24, '0'),
    title,
    priority,
    kind,
    text,
    ...(kind === 'snippet' ? { start: 0, end: text.length, fileChars: text.length * 4 } : {}),
  });

  test('items fit in order, the one that does not is cut with a query_files note, and the total stays within budget', () => {
    const a = item('a', 'alpha '.repeat(100), Priority.CRITICAL);
    const b = item('b', 'beta line\n'.repeat(400), Priority.CONSTRAINT);
    const packed = pack([a, b], 900, 0, measures());
    expect(packed.placed.map((p) => p.mode)).toEqual(['full', 'truncated']);
    expect(packed.placed[1]!.rendered).toMatch(
      /\[truncated: showing \d+\/4000 characters; full text: query_files\(id="0+b"\)\]/,
    );
    expect(countTokens(packed.placed.map((p) => p.rendered).join('\n\n'))).toBeLessThanOrEqual(900);
  });

  test('a non-critical item cut below 500 characters and below half its length is dropped; a critical one is cut', () => {
    const filler = item('f', 'filler '.repeat(380), Priority.CONSTRAINT);
    const big = item('g', 'x y '.repeat(2000), Priority.RELEVANT);
    const packed = pack([filler, big], 500, 0, measures());
    expect(packed.placed.map((p) => p.item.title)).toEqual(['f']);
    expect(packed.dropped).toContain(big.fileId);
    const critical = pack([filler, { ...big, priority: Priority.CRITICAL }], 500, 0, measures());
    expect(critical.placed.map((p) => p.mode)).toEqual(['full', 'truncated']);
  });

  test('a long text is measured once per worker: a later assembly gets the same measurement, a changed text a new one', () => {
    const { measuredTexts } = createWorkerCaches();
    const chapter = 'The rain did not stop. '.repeat(200);
    const first = measureShared(measuredTexts, chapter);
    expect(first.count).toBe(countTokens(chapter));
    // The same text in another string (a later turn's read of the unchanged file).
    expect(measureShared(measuredTexts, `${chapter.slice(0, 10)}${chapter.slice(10)}`)).toBe(first);
    const edited = measureShared(measuredTexts, `${chapter}One more line.`);
    expect(edited).not.toBe(first);
    expect(edited.count).toBe(countTokens(`${chapter}One more line.`));
    // Short texts are not kept.
    const short = 'x'.repeat(SHARED_MEASURE_MIN_CHARS - 1);
    expect(measureShared(measuredTexts, short)).not.toBe(measureShared(measuredTexts, short));
  });

  test('snippets are marked as snippets with the way to read the file', () => {
    const packed = pack([item('s', 'a passage', Priority.RELEVANT, 'snippet')], 500, 0, measures());
    expect(packed.placed[0]!.rendered).toMatch(
      /\[retrieved snippet, characters 0–9 of 36; not the full text: read it with query_files\(id="0+s"\)\]/,
    );
  });
});

describe('working set', () => {
  const msg = (turnId: string, fileIds: string[], op = 'edited') => ({
    turnId,
    role: 'assistant',
    breadcrumb: fileIds.map((fileId) => ({ op, fileId })),
  });

  test('covers the last two turns (however many runs each had), newest first, never the current turn', () => {
    const messages = [msg('t4', ['x']), msg('t3', ['c']), msg('t3', ['d'], 'read'), msg('t2', ['b']), msg('t1', ['a'])];
    expect(workingSetIds(messages, 't4')).toEqual(['c', 'd', 'b']);
    expect(workingSetIds([msg('t2', ['b'], 'deleted'), msg('t1', ['a'])], 't9')).toEqual(['a']);
  });

  test('files come whole within the file and character limits, then as title + id; files already [full] in context get one line', () => {
    const f = (id: string, chars: number) => ({
      id: id.padStart(24, '0'),
      title: `File ${id}`,
      type: 'draft',
      content: 'z'.repeat(chars),
      version: 1,
      authorEdits: [],
    });
    const files = [f('1', 1000), f('2', 1000), f('3', 100), f('4', 5000)];
    const ws = renderWorkingSet(
      files,
      new Set([files[1]!.id]),
      { maxFiles: 2, maxChars: 5000, maxTokens: 100_000 },
      'en',
    );
    expect(ws.whole.map((w) => w.fileId)).toEqual([files[0]!.id, files[2]!.id]);
    expect(ws.text).toContain(`- File 2 (id=${files[1]!.id}) (full text in the project context)`);
    expect(ws.text).toContain(`File 4 (id=${files[3]!.id}, draft): not shown here (working-set limit)`);
    expect(ws.text).not.toContain('z'.repeat(5000));
    const byChars = renderWorkingSet(files, new Set(), { maxFiles: 8, maxChars: 1500, maxTokens: 100_000 }, 'en');
    expect(byChars.whole.map((w) => w.fileId)).toEqual([files[0]!.id, files[2]!.id]);
  });
});

describe('file list', () => {
  const entry = (i: number, type = 'draft') => ({
    id: i.toString(16).padStart(24, '0'),
    title: `第${i}章`,
    type,
    words: 3000,
    importance: null,
    latestAuthor: 'ai',
  });

  test('a long book keeps every non-chapter file, the candidates and the newest chapters listed, the rest summarised with a way to find them', () => {
    const files = [entry(9999, 'outline'), ...Array.from({ length: 400 }, (_, i) => entry(i + 1))];
    const list = renderManifest(files, new Set([entry(37).id]), 16000);
    expect(countTokens(list)).toBeLessThanOrEqual(16000 / 3);
    expect(countTokens(files.map((f) => `- ${f.title} (id=${f.id}, draft, 3000 words)`).join('\n'))).toBeGreaterThan(
      16000 / 3,
    );
    expect(list).toContain(`(id=${entry(9999).id}, outline`);
    expect(list).toContain(`- 第37章 (id=${entry(37).id}`);
    expect(list).toContain(`- 第400章 (id=${entry(400).id}`);
    expect(list).not.toContain(`(id=${entry(100).id}`);
    expect(list).toContain(
      '- … and 379 more chapters (第1章 … 第380章) not listed here: find one with query_files(query="<its title>")',
    );
    // A book that fits is listed whole.
    expect(renderManifest(files.slice(0, 30), new Set(), 32000).split('\n')).toHaveLength(30);
  });
});
