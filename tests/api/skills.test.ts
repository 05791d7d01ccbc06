/**
 * Skills REST on the real app and database: a SKILL.md package imported from a zip, listed,
 * read, exported (round trip), enabled / disabled, replaced only when asked, deleted; and
 * every hostile archive refused with its own reason, with nothing stored.
 */
import { readSkillZip } from '../../src/skills/package';
import { skillImportLimits } from '../../src/skills/limits';
import { api, createHarness, type Harness } from '../helpers/harness';
import { markEncrypted, renameInZip, skillMd, skillZip, zipOf } from '../helpers/skill-zips';

let h: Harness;
beforeAll(async () => {
  h = await createHarness({
    noWorker: true,
    config: {
      SKILL_MAX_FILES: '8',
      SKILL_MAX_FILE_BYTES: '4096',
      SKILL_MAX_TOTAL_BYTES: '10000',
      SKILL_ZIP_MAX_BYTES: '20000',
    },
  });
});
afterAll(async () => h?.close());

async function upload(
  zip: Buffer,
  query = '',
  type = 'application/zip',
): Promise<{ status: number; body: Record<string, unknown> & { error?: { code: string; message: string } } }> {
  const res = await fetch(`${h.baseUrl}/api/v1/skills/import${query}`, {
    method: 'POST',
    headers: { 'content-type': type },
    body: zip,
  });
  return { status: res.status, body: (await res.json()) as never };
}

test('a SKILL.md zip imports, lists, reads, exports byte-for-byte in content, and toggles', async () => {
  const zip = await skillZip(
    'Cliffhanger Endings',
    'End each chapter on an open question',
    '# Method\n1. Find the scene turn.\n2. Cut before the answer.',
    { 'references/examples.md': 'Example: the door opened.', 'scripts/count.py': 'print("never run")' },
    'cliffhanger/',
  );
  const r = await upload(zip);
  expect(r.status).toBe(201);
  expect(r.body).toMatchObject({
    name: 'Cliffhanger Endings',
    description: 'End each chapter on an open question',
    enabled: true,
    body: '# Method\n1. Find the scene turn.\n2. Cut before the answer.',
    resources: [
      { path: 'references/examples.md', kind: 'reference', chars: 25 },
      { path: 'scripts/count.py', kind: 'script', chars: 18 },
    ],
  });
  const id = r.body.id as string;

  const list = await api<{ items: { id: string; name: string; body?: string }[] }>(h, 'GET', '/api/v1/skills');
  expect(list.body.items.map((s) => [s.id, s.name])).toEqual([[id, 'Cliffhanger Endings']]);
  expect(list.body.items[0]).not.toHaveProperty('body');

  const exported = await fetch(`${h.baseUrl}/api/v1/skills/${id}/export`);
  expect(exported.status).toBe(200);
  expect(exported.headers.get('content-type')).toBe('application/zip');
  const back = await readSkillZip(Buffer.from(await exported.arrayBuffer()), skillImportLimits(h.config));
  expect(back.manifest).toBe(
    skillMd(
      'Cliffhanger Endings',
      'End each chapter on an open question',
      '# Method\n1. Find the scene turn.\n2. Cut before the answer.',
    ),
  );
  expect(back.resources.map((x) => [x.path, x.content])).toEqual([
    ['references/examples.md', 'Example: the door opened.'],
    ['scripts/count.py', 'print("never run")'],
  ]);

  const off = await api<{ enabled: boolean }>(h, 'PATCH', `/api/v1/skills/${id}`, { enabled: false });
  expect(off).toMatchObject({ status: 200, body: { enabled: false } });
  expect((await h.runtime.models.Skill.findById(id).lean())?.enabled).toBe(false);
  expect((await api(h, 'PATCH', `/api/v1/skills/${id}`, { enabled: 'no' })).status).toBe(400);

  expect((await api(h, 'DELETE', `/api/v1/skills/${id}`)).status).toBe(204);
  expect((await api(h, 'GET', `/api/v1/skills/${id}`)).status).toBe(404);
});

test('importing a name that exists is a 409 unless replace=true, which keeps the id', async () => {
  const first = await upload(await skillZip('pacing', 'Keep scenes moving', 'v1'));
  expect(first.status).toBe(201);
  const again = await upload(await skillZip('Pacing', 'Keep scenes moving', 'v2'));
  expect(again.status).toBe(409);
  expect((await h.runtime.models.Skill.findById(first.body.id).lean())?.body).toBe('v1');
  const replaced = await upload(await skillZip('Pacing', 'Keep scenes moving faster', 'v2'), '?replace=true');
  expect(replaced.status).toBe(201);
  expect(replaced.body).toMatchObject({ id: first.body.id, name: 'Pacing', body: 'v2' });
  await api(h, 'DELETE', `/api/v1/skills/${first.body.id as string}`);
});

const manifest = { path: 'SKILL.md', content: skillMd('hostile', 'A test skill', 'Body.') };

/** One hostile archive per refusal reason, each with the code the API must answer. */
const hostile: [reason: string, build: () => Promise<Buffer>, status: number, code: string][] = [
  [
    'path traversal (../)',
    async () => renameInZip(await zipOf([manifest, { path: 'zz/evil.md', content: 'x' }]), 'zz/evil.md', '../evil.md'),
    400,
    'skill_path_traversal',
  ],
  [
    'path traversal (a/../../)',
    async () =>
      renameInZip(
        await zipOf([manifest, { path: 'a/zz/zz/evil.md', content: 'x' }]),
        'a/zz/zz/evil.md',
        'a/../../evil.md',
      ),
    400,
    'skill_path_traversal',
  ],
  [
    'Windows traversal (..\\)',
    async () => renameInZip(await zipOf([manifest, { path: 'zzzevil.md', content: 'x' }]), 'zzzevil.md', '..\\evil.md'),
    400,
    'skill_path_traversal',
  ],
  [
    'absolute path',
    async () =>
      renameInZip(
        await zipOf([manifest, { path: 'xetc/passwd.md', content: 'x' }]),
        'xetc/passwd.md',
        '/etc/passwd.md',
      ),
    400,
    'skill_absolute_path',
  ],
  [
    'drive-letter path',
    async () => renameInZip(await zipOf([manifest, { path: 'xx/evil.md', content: 'x' }]), 'xx/evil.md', 'C:/evil.md'),
    400,
    'skill_absolute_path',
  ],
  [
    'symbolic link',
    () => zipOf([manifest, { path: 'link.md', content: '/etc/passwd', mode: 0o120777 }]),
    400,
    'skill_link',
  ],
  [
    'encrypted entry',
    async () => markEncrypted(await zipOf([manifest, { path: 'secret.md', content: 'x', store: true }])),
    400,
    'skill_encrypted_file',
  ],
  [
    'file over SKILL_MAX_FILE_BYTES',
    () => zipOf([manifest, { path: 'big.md', content: 'a'.repeat(5000) }]),
    400,
    'skill_file_too_large',
  ],
  [
    'files together over SKILL_MAX_TOTAL_BYTES (a small zip bomb)',
    () => zipOf([manifest, ...[1, 2, 3].map((i) => ({ path: `part${i}.md`, content: 'a'.repeat(4000) }))]),
    400,
    'skill_archive_too_large',
  ],
  [
    'more than SKILL_MAX_FILES files',
    () => zipOf([manifest, ...Array.from({ length: 8 }, (_, i) => ({ path: `f${i}.md`, content: 'x' }))]),
    400,
    'skill_too_many_files',
  ],
  [
    'binary file (NUL bytes)',
    () => zipOf([manifest, { path: 'image.png', content: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x00, 0x1a]) }]),
    400,
    'skill_binary_file',
  ],
  [
    'binary file (invalid UTF-8)',
    () => zipOf([manifest, { path: 'blob.md', content: Buffer.from([0xc3, 0x28, 0xff, 0xfe]) }]),
    400,
    'skill_binary_file',
  ],
  [
    'duplicate path',
    async () =>
      renameInZip(
        await zipOf([manifest, { path: 'a.md', content: 'x' }, { path: 'b.md', content: 'y' }]),
        'b.md',
        'a.md',
      ),
    400,
    'skill_duplicate_path',
  ],
  ['no SKILL.md', () => zipOf([{ path: 'README.md', content: 'hi' }]), 400, 'skill_missing_manifest'],
  [
    'SKILL.md without a name',
    () => zipOf([{ path: 'SKILL.md', content: '---\ndescription: nameless\n---\nBody' }]),
    400,
    'skill_invalid_manifest',
  ],
  [
    'SKILL.md without front matter',
    () => zipOf([{ path: 'SKILL.md', content: '# Just markdown' }]),
    400,
    'skill_invalid_manifest',
  ],
  [
    'YAML alias bomb in front matter',
    () =>
      zipOf([
        {
          path: 'SKILL.md',
          content: `---\na: &a [x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nname: bomb\ndescription: d\n---\n`,
        },
      ]),
    400,
    'skill_invalid_manifest',
  ],
  ['not a zip at all', async () => Buffer.from('this is not a zip file'), 400, 'skill_invalid_archive'],
  ['upload over SKILL_ZIP_MAX_BYTES', async () => Buffer.alloc(25_000, 7), 413, 'payload_too_large'],
];

test.each(hostile)('a hostile zip is refused: %s', async (_reason, build, status, code) => {
  const before = await h.runtime.models.Skill.countDocuments({});
  const r = await upload(await build());
  expect({ status: r.status, code: r.body.error?.code }).toEqual({ status, code });
  expect(await h.runtime.models.Skill.countDocuments({})).toBe(before);
});

test('desktop-zip clutter is skipped, and a wrong content type is a clean 400', async () => {
  const zip = await zipOf([
    manifest,
    { path: '__MACOSX/._SKILL.md', content: Buffer.from([0, 5, 22, 7, 0, 2]) },
    { path: '.DS_Store', content: Buffer.from([0, 0, 0, 1]) },
  ]);
  const r = await upload(zip);
  expect(r.status).toBe(201);
  expect(r.body.resources).toEqual([]);
  await api(h, 'DELETE', `/api/v1/skills/${r.body.id as string}`);
  const wrong = await upload(Buffer.from('{"a":1}'), '', 'application/json');
  expect(wrong.status).toBe(400);
  expect((await api(h, 'GET', '/api/v1/skills?x=1')).status).toBe(400);
});
