/**
 * The manuscript routes over real HTTP against real MongoDB: the files list paged in the
 * manuscript's order (never a silent cut), renames and goals that write no version, chapter
 * moves that renumber titles and never touch text (the tree, the board and the export
 * follow), the board's statuses and synopses, search in English and Chinese, and editing,
 * deleting and restoring a project. Another owner's ids answer exactly like missing ones.
 */
import { gunzipSync } from 'node:zlib';
import { chapterFiles } from '../../src/activities/job/job-files';
import { newId } from '../../src/db/models';
import { api, createHarness, type Harness } from '../helpers/harness';

const A = { authorization: 'Bearer author-a-token-0123456789' };
const B = { authorization: 'Bearer author-b-token-0123456789' };

let h: Harness;
beforeAll(async () => {
  h = await createHarness({
    noWorker: true,
    config: {
      API_TOKENS: 'author-a-token-0123456789:alice,author-b-token-0123456789:bob',
      STREAM_TOKEN_SECRET: 'manuscript-test-stream-secret-0123456789',
    },
  });
});
afterAll(async () => h?.close());

const as = <T>(method: string, path: string, body?: unknown, who = A) => api<T>(h, method, `/api/v1${path}`, body, who);

async function project(title = 'The Lighthouse', extra: Record<string, unknown> = {}): Promise<string> {
  const p = await as<{ id: string }>('POST', '/projects', { title, type: 'novel', ...extra });
  expect(p.status).toBe(201);
  return p.body.id;
}
async function file(projectId: string, title: string, content: string, type = 'draft'): Promise<string> {
  const f = await as<{ id: string }>('POST', '/files', { projectId, type, title, content });
  expect(f.status).toBe(201);
  return f.body.id;
}
type Summary = {
  id: string;
  title: string;
  type: string;
  version: number;
  order: number;
  words: number;
  wordGoal: number | null;
  updatedAt: string;
};
type Page = {
  items: Summary[];
  total: number;
  counts: Record<string, number>;
  offset: number;
  nextOffset: number | null;
};
const files = async (projectId: string, query = '') =>
  (await as<Page>('GET', `/projects/${projectId}/files${query}`)).body;
const content = async (id: string) =>
  (await as<{ content: string; version: number; versions: unknown[] }>('GET', `/files/${id}`)).body;
type Board = {
  totals: Record<string, number>;
  wordGoal: number | null;
  chapterWordGoal: number | null;
  writingJob: unknown;
  items: {
    fileId: string | null;
    number: number | null;
    title: string;
    status: string;
    words: number;
    synopsis: string;
    suggestedTitle?: string;
    wordGoal: number | null;
  }[];
};
const board = async (projectId: string) => (await as<Board>('GET', `/projects/${projectId}/board`)).body;

test('the files list comes in pages in the manuscript order, with the total and counts, so nothing is cut silently', async () => {
  const p = await project();
  // Made out of order, as agents and authors make them.
  for (const n of [10, 2, 7, 1, 3]) await file(p, `Chapter ${n}`, `Text of chapter ${n}.`);
  await file(p, 'Outline', 'Chapter 1: The Storm — a storm.', 'outline');
  await file(p, 'Mara', 'The keeper.', 'character');
  await file(p, 'Chapter Eleven', 'Spelled out, still eleven.');

  const first = await files(p, '?limit=3');
  expect(first).toMatchObject({ total: 8, counts: { outline: 1, character: 1, draft: 6 }, offset: 0, nextOffset: 3 });
  const titles = [...first.items];
  for (let next = first.nextOffset; next !== null;) {
    const page = await files(p, `?limit=3&offset=${next}`);
    expect(page.total).toBe(8);
    titles.push(...page.items);
    next = page.nextOffset;
  }
  expect(titles.map((f) => f.title)).toEqual([
    'Outline',
    'Mara',
    'Chapter 1',
    'Chapter 2',
    'Chapter 3',
    'Chapter 7',
    'Chapter 10',
    'Chapter Eleven',
  ]);
  // The default page holds them all and says there is no next page.
  expect(await files(p)).toMatchObject({ total: 8, nextOffset: null });
  expect((await files(p, '?offset=99')).items).toEqual([]);

  // An unchanged list revalidates to a bodiless 304; a large one travels gzipped.
  const url = `${h.baseUrl}/api/v1/projects/${p}/files`;
  const res = await fetch(url, { headers: A });
  const etag = res.headers.get('etag')!;
  expect(res.headers.get('cache-control')).toBe('private, no-cache');
  expect((await fetch(url, { headers: { ...A, 'if-none-match': etag } })).status).toBe(304);
  await file(p, 'Chapter 12', 'More.');
  expect((await fetch(url, { headers: { ...A, 'if-none-match': etag } })).status).toBe(200);
  await Promise.all(Array.from({ length: 12 }, (_, i) => file(p, `Chapter ${20 + i}`, 'Later.')));
  const raw = await import('node:http').then(
    (http) =>
      new Promise<{ encoding?: string; body: Buffer }>((resolve, reject) => {
        http
          .get(url, { headers: { ...A, 'accept-encoding': 'gzip' } }, (r) => {
            const chunks: Buffer[] = [];
            r.on('data', (c: Buffer) => chunks.push(c));
            r.on('end', () => resolve({ encoding: r.headers['content-encoding'], body: Buffer.concat(chunks) }));
          })
          .on('error', reject);
      }),
  );
  expect(raw.encoding).toBe('gzip');
  expect((JSON.parse(gunzipSync(raw.body).toString('utf8')) as Page).total).toBe(21);
});

test('a rename and a word goal change the file, not its text: no new version, updatedAt kept', async () => {
  const p = await project();
  const id = await file(p, 'Chapter 1', 'The tide came in.');
  const before = (await files(p)).items[0]!;
  const renamed = await as<Summary>('PATCH', `/files/${id}`, { title: 'Chapter 1: The Tide', wordGoal: 2500 });
  expect(renamed.status).toBe(200);
  expect(renamed.body).toMatchObject({
    title: 'Chapter 1: The Tide',
    wordGoal: 2500,
    version: 1,
    updatedAt: before.updatedAt,
  });
  const doc = await content(id);
  expect(doc).toMatchObject({ content: 'The tide came in.', version: 1 });
  expect(doc.versions).toHaveLength(1);
  expect((await as<Summary>('PATCH', `/files/${id}`, { wordGoal: null })).body.wordGoal).toBeNull();
  // A text change is PUT's job; an empty or unknown change is refused.
  expect((await as('PATCH', `/files/${id}`, { content: 'x' })).status).toBe(400);
  expect((await as('PATCH', `/files/${id}`, {})).status).toBe(400);
  expect((await as('PATCH', `/files/${id}`, { wordGoal: 0 })).status).toBe(400);
});

test('moving “Chapter 3: The Bell” to second place renumbers titles only; the tree, the board and the export follow', async () => {
  const p = await project();
  const texts = [
    '# Chapter 1: Storm\n\nThe lamp failed.',
    '# Chapter 2: Visitor\n\nA stranger came.',
    '# Chapter 3: The Bell\n\nThe bell rang.',
    'The tide turned.',
  ];
  const ids: string[] = [];
  for (const [i, name] of ['Storm', 'Visitor', 'The Bell', 'Tide'].entries())
    ids.push(await file(p, `Chapter ${i + 1}: ${name}`, texts[i]!));
  const moved = await as<{
    order: string[];
    renamed: { fileId: string; from: string; to: string }[];
    skipped: string[];
  }>('POST', `/projects/${p}/chapters/move`, { fileId: ids[2], to: 1 });
  expect(moved.status).toBe(200);
  expect(moved.body.order).toEqual([ids[0], ids[2], ids[1], ids[3]]);
  expect(moved.body.renamed).toEqual([
    { fileId: ids[2], from: 'Chapter 3: The Bell', to: 'Chapter 2: The Bell' },
    { fileId: ids[1], from: 'Chapter 2: Visitor', to: 'Chapter 3: Visitor' },
  ]);
  // Not one text changed and no version was written.
  for (const [i, id] of ids.entries()) expect(await content(id)).toMatchObject({ content: texts[i], version: 1 });
  expect((await files(p)).items.map((f) => f.title)).toEqual([
    'Chapter 1: Storm',
    'Chapter 2: The Bell',
    'Chapter 3: Visitor',
    'Chapter 4: Tide',
  ]);
  expect((await board(p)).items.map((i) => i.fileId)).toEqual([ids[0], ids[2], ids[1], ids[3]]);
  // The export orders by the titles, and shows a heading still carrying the old number with the new one.
  const md = await fetch(`${h.baseUrl}/api/v1/projects/${p}/export?format=md`, { headers: A }).then((r) => r.text());
  const headings = md.split('\n').filter((l) => /^#+ Chapter/.test(l));
  expect(headings).toEqual([
    '# Chapter 1: Storm',
    '# Chapter 2: The Bell',
    '# Chapter 3: Visitor',
    '# Chapter 4: Tide',
  ]);
  expect(md.indexOf('The bell rang.')).toBeLessThan(md.indexOf('A stranger came.'));
  // A job or an agent asking for chapter 2 now gets The Bell (chapters are found by the numbers in their titles).
  const byNumber = await chapterFiles(h.runtime.models, p);
  expect(byNumber.get(2)!.map((f) => f.id)).toEqual([ids[2]]);
  expect(byNumber.get(3)!.map((f) => f.id)).toEqual([ids[1]]);

  // A gap left by a delete closes with renumber.
  expect((await as('DELETE', `/files/${ids[0]}`)).status).toBe(204);
  const renumbered = await as<{ renamed: { to: string }[] }>('POST', `/projects/${p}/chapters/renumber`);
  expect(renumbered.body.renamed.map((r) => r.to)).toEqual([
    'Chapter 1: The Bell',
    'Chapter 2: Visitor',
    'Chapter 3: Tide',
  ]);

  // Not while a job is writing chapters by number.
  const job = await h.runtime.models.Job.create({
    ownerId: 'alice',
    projectId: p,
    sessionId: newId(),
    from: 1,
    to: 3,
    chaptersDone: [1],
    status: 'running',
    workflowId: `job-${newId()}`,
  });
  const refused = await as<{ error: { code: string } }>('POST', `/projects/${p}/chapters/move`, {
    fileId: ids[3],
    to: 0,
  });
  expect([refused.status, refused.body.error.code]).toEqual([409, 'job_writing']);
  // The board knows the job's range and the chapter it writes now (the first of its range not done).
  expect((await board(p)).writingJob).toMatchObject({
    id: String(job._id),
    status: 'running',
    from: 1,
    to: 3,
    done: [1],
    writing: 2,
  });
  await h.runtime.models.Job.updateOne({ _id: job._id }, { $set: { status: 'completed' } });
  expect((await as('POST', `/projects/${p}/chapters/move`, { fileId: newId(), to: 0 })).status).toBe(404);
});

test('Chinese titles renumber in Chinese numerals', async () => {
  const p = await project('雾港');
  const ids = [
    await file(p, '第一章 雾起', '雾。'),
    await file(p, '第二章 来客', '客。'),
    await file(p, '第三章 钟声', '钟。'),
  ];
  await as('POST', `/projects/${p}/chapters/move`, { fileId: ids[2], to: 0 });
  expect((await files(p)).items.map((f) => f.title)).toEqual(['第一章 钟声', '第二章 雾起', '第三章 来客']);
});

test('the board: chapters with status, words, synopsis from the outline, planned entries, goals', async () => {
  const p = await project('The Lighthouse', { summary: 'A keeper.' });
  await file(
    p,
    'Outline',
    '# Outline\n\nChapter 1: The Storm — Mara sees the lamp fail.\nChapter 2: The Visitor — A stranger at the pier.\nChapter 3: Low Tide — The ledger.\nChapter 4: The Bell — It rings twice.',
    'outline',
  );
  const one = await file(p, 'Chapter 1: The Storm', 'The lamp failed in the storm.');
  const two = await file(p, 'Chapter 2: The Visitor', 'A stranger came to the pier.');
  await file(p, 'Chapter 3: Low Tide', '');
  // Chapter 1 was reviewed in the turn that wrote it (the reviewer ran after the writer).
  await h.runtime.models.Turn.create({
    sessionId: newId(),
    projectId: p,
    ownerId: 'alice',
    message: 'Write chapter 1',
    workflowId: 'turn-x',
    status: 'completed',
    agentRuns: [
      { agent: 'writer', outcome: 'done' },
      { agent: 'quality_reviewer', outcome: 'done' },
    ],
    filesTouched: [one],
    endedAt: new Date(Date.now() + 1000),
  });
  // A review that the writer followed again does not count for chapter 2.
  await h.runtime.models.Turn.create({
    sessionId: newId(),
    projectId: p,
    ownerId: 'alice',
    message: 'Write chapter 2',
    workflowId: 'turn-y',
    status: 'completed',
    agentRuns: [
      { agent: 'writer', outcome: 'done' },
      { agent: 'quality_reviewer', outcome: 'done' },
      { agent: 'writer', outcome: 'done' },
    ],
    filesTouched: [two],
    endedAt: new Date(Date.now() + 1000),
  });
  expect((await as('PATCH', `/projects/${p}`, { wordGoal: 80000, chapterWordGoal: 3 })).status).toBe(200);
  expect((await as('PATCH', `/files/${two}`, { wordGoal: 6 })).status).toBe(200);

  const b = await board(p);
  expect(b.items.map((i) => [i.number, i.title, i.status, i.words, i.synopsis])).toEqual([
    [1, 'Chapter 1: The Storm', 'reviewed', 6, 'Mara sees the lamp fail.'],
    [2, 'Chapter 2: The Visitor', 'drafted', 6, 'A stranger at the pier.'],
    [3, 'Chapter 3: Low Tide', 'planned', 0, 'The ledger.'],
    [4, 'The Bell', 'planned', 0, 'It rings twice.'],
  ]);
  expect(b.items[3]).toMatchObject({ fileId: null, suggestedTitle: 'Chapter 4: The Bell' });
  expect(b.items[1]!.wordGoal).toBe(6);
  expect(b).toMatchObject({
    wordGoal: 80000,
    chapterWordGoal: 3,
    totals: { chapters: 4, files: 3, words: 12, planned: 2, drafted: 1, reviewed: 1 },
  });

  // An author edit after the review makes chapter 1 a draft again.
  await new Promise((r) => setTimeout(r, 1100));
  expect(
    (await as('PUT', `/files/${one}`, { content: 'The lamp failed in the great storm.', baseVersion: 1 })).status,
  ).toBe(200);
  expect((await board(p)).items[0]!.status).toBe('drafted');
});

test('search: titles and text, English and Chinese, with offsets that point into the text', async () => {
  const p = await project();
  const en = 'The tide came in at dusk.\nMara counted the lamps. None of them were lit.';
  const a = await file(p, 'Chapter 1: Lamps', en);
  const zhText = '远处的钟声在雾里回荡。\n“灯塔还亮着吗？”她问。';
  const b = await file(p, '第二章 来客', zhText);
  type Result = {
    fileId: string;
    title: string;
    titleMatch: boolean;
    count: number;
    hits: { from: number; to: number; before: string; match: string; after: string }[];
  };
  const search = async (q: string) =>
    (
      await as<{ total: number; results: Result[]; mode: string }>(
        'GET',
        `/projects/${p}/search?q=${encodeURIComponent(q)}`,
      )
    ).body;

  const lamps = await search('LAMPS');
  expect(lamps.results.map((r) => [r.fileId, r.titleMatch, r.count])).toEqual([[a, true, 1]]);
  const hit = lamps.results[0]!.hits[0]!;
  expect(en.slice(hit.from, hit.to)).toBe('lamps');
  expect(hit).toMatchObject({ before: 'Mara counted the ', after: '. None of them were lit.' });

  const zh = await search('灯塔');
  expect(zh.results.map((r) => r.fileId)).toEqual([b]);
  expect(zhText.slice(zh.results[0]!.hits[0]!.from, zh.results[0]!.hits[0]!.to)).toBe('灯塔');
  expect(zh.results[0]!.hits[0]).toMatchObject({ before: '“', match: '灯塔', after: '还亮着吗？”她问。' });
  expect((await search('来客')).results[0]).toMatchObject({ fileId: b, titleMatch: true, count: 0 });
  expect((await search('dusk. Mara')).total).toBe(1);
  expect((await search('nothing like this')).results).toEqual([]);
  expect((await as('GET', `/projects/${p}/search?q=`)).status).toBe(400);
});

test('a project is edited, deleted (kept with its files, gone from the desk) and restored; not while a turn runs', async () => {
  const p = await project('Draft title');
  const ch = await file(p, 'Chapter 1', 'Text.');
  const edited = await as<{ title: string; summary: string; style: string; author: string }>(
    'PATCH',
    `/projects/${p}`,
    { title: 'The Lighthouse', summary: 'A keeper and a storm.', style: 'Spare.', author: 'Mara Quill' },
  );
  expect(edited.status).toBe(200);
  expect(edited.body).toMatchObject({
    title: 'The Lighthouse',
    summary: 'A keeper and a storm.',
    style: 'Spare.',
    author: 'Mara Quill',
  });
  expect((await as('PATCH', `/projects/${p}`, { notes: 'x' })).status).toBe(400);

  const running = await h.runtime.models.Turn.create({
    sessionId: newId(),
    projectId: p,
    ownerId: 'alice',
    message: 'Write',
    workflowId: 'turn-z',
    status: 'running',
  });
  const busy = await as<{ error: { code: string } }>('DELETE', `/projects/${p}`);
  expect([busy.status, busy.body.error.code]).toEqual([409, 'project_busy']);
  await h.runtime.models.Turn.updateOne({ _id: running._id }, { $set: { status: 'completed' } });

  expect((await as('DELETE', `/projects/${p}`)).status).toBe(204);
  expect((await as('GET', `/projects/${p}`)).status).toBe(404);
  expect((await as('GET', `/projects/${p}/files`)).status).toBe(404);
  expect((await as<{ items: { id: string }[] }>('GET', '/projects')).body.items.map((x) => x.id)).not.toContain(p);
  const deleted = await as<{ items: { id: string; deletedAt: string }[] }>('GET', '/projects?deleted=true');
  expect(deleted.body.items.find((x) => x.id === p)?.deletedAt).toEqual(expect.any(String));
  // Kept as it was: the file is still there, untouched.
  expect(await h.runtime.models.File.countDocuments({ _id: ch, deletedAt: null })).toBe(1);

  const back = await as<{ id: string; title: string }>('POST', `/projects/${p}/undelete`);
  expect(back.body).toMatchObject({ id: p, title: 'The Lighthouse' });
  expect((await content(ch)).content).toBe('Text.');
  expect((await as<{ error: { code: string } }>('POST', `/projects/${p}/undelete`)).body.error.code).toBe(
    'not_deleted',
  );
});

test("another author's ids answer exactly like missing ones on every manuscript route", async () => {
  const p = await project();
  const f = await file(p, 'Chapter 1: Secret', 'moonlit smugglers');
  const probes: [string, (pid: string, fid: string) => string, ((pid: string, fid: string) => unknown)?][] = [
    ['GET', (pid) => `/projects/${pid}/board`],
    ['GET', (pid) => `/projects/${pid}/search?q=moonlit`],
    ['POST', (pid) => `/projects/${pid}/chapters/move`, (_p, fid) => ({ fileId: fid, to: 0 })],
    ['POST', (pid) => `/projects/${pid}/chapters/renumber`],
    ['PATCH', (pid) => `/projects/${pid}`, () => ({ title: 'Mine now' })],
    ['DELETE', (pid) => `/projects/${pid}`],
    ['POST', (pid) => `/projects/${pid}/undelete`],
    ['PATCH', (_p, fid) => `/files/${fid}`, () => ({ title: 'Mine now' })],
  ];
  for (const [method, path, body] of probes) {
    const [op, of] = [newId(), newId()];
    const mine = await fetch(`${h.baseUrl}/api/v1${path(p, f)}`, {
      method,
      headers: { ...B, 'content-type': 'application/json' },
      body: body ? JSON.stringify(body(p, f)) : undefined,
    });
    const none = await fetch(`${h.baseUrl}/api/v1${path(op, of)}`, {
      method,
      headers: { ...B, 'content-type': 'application/json' },
      body: body ? JSON.stringify(body(op, of)) : undefined,
    });
    const text = (await mine.text()).split(p).join(op).split(f).join(of);
    expect([method, path('P', 'F'), mine.status]).toEqual([method, path('P', 'F'), 404]);
    expect(text).toBe(await none.text());
  }
  expect((await as<{ title: string }>('GET', `/projects/${p}`)).body.title).toBe('The Lighthouse');
  expect((await content(f)).content).toBe('moonlit smugglers');
  expect((await files(p)).items[0]!.title).toBe('Chapter 1: Secret');
});
