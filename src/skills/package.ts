/**
 * Skill packages in the standard `SKILL.md` form: YAML front
 * matter with `name` and `description`, a Markdown body, optional reference files beside it.
 *
 * Import reads an uploaded zip defensively: every entry is checked before a byte of it is
 * inflated (path traversal, absolute paths, links and special files, encryption, declared
 * sizes, file count), inflating stops at the declared size (yauzl validates it), and only
 * UTF-8 text is kept. Scripts in a skill are stored as text and never executed: nothing in
 * Scriptorium runs a skill's files, they are only ever shown to the model as data.
 */
import { Buffer } from 'node:buffer';
import yauzl from 'yauzl';
import yazl from 'yazl';
import { parse as parseYaml } from 'yaml';
import type { SkillImportLimits } from './limits';

/** Why an archive was refused; each is the `code` of the API's 400 answer. */
export type SkillRefusal =
  | 'skill_invalid_archive'
  | 'skill_path_traversal'
  | 'skill_absolute_path'
  | 'skill_link'
  | 'skill_encrypted_file'
  | 'skill_too_many_files'
  | 'skill_file_too_large'
  | 'skill_archive_too_large'
  | 'skill_binary_file'
  | 'skill_duplicate_path'
  | 'skill_missing_manifest'
  | 'skill_invalid_manifest';

export class SkillPackageError extends Error {
  constructor(
    readonly code: SkillRefusal,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export const MANIFEST = 'SKILL.md';
const SCRIPT_EXT = /\.(py|sh|bash|zsh|js|mjs|cjs|ts|rb|pl|php|ps1|bat|cmd|exe|lua)$/i;
/** Archive clutter from desktop zip tools, skipped rather than refused (it is not the author's content). */
const CLUTTER = /(^|\/)(__MACOSX\/|\.DS_Store$|Thumbs\.db$)/;
// eslint-disable-next-line no-control-regex -- control characters are exactly what this refuses in names
const CONTROL = /[\u0000-\u001f\u007f]/;

export interface SkillResource {
  path: string;
  content: string;
  /** `script` files are stored and shown as text, never run. */
  kind: 'reference' | 'script';
}

export interface SkillManifest {
  name: string;
  description: string;
  /** The Markdown after the front matter: the skill's method (L2). */
  body: string;
  /** Other front-matter keys (license, allowed-tools, …), kept as data; none of them grants anything. */
  metadata: Record<string, unknown>;
}

export interface SkillPackage extends SkillManifest {
  /** SKILL.md exactly as uploaded. */
  manifest: string;
  resources: SkillResource[];
}

export const resourceKind = (path: string): SkillResource['kind'] =>
  SCRIPT_EXT.test(path) || /^scripts\//i.test(path) ? 'script' : 'reference';

/** Parses SKILL.md: `---` YAML front matter `---`, then the body. */
export function parseSkillMd(text: string): SkillManifest {
  const src = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  const m = /^---\n([\s\S]*?)\n(?:---|\.\.\.)[ \t]*(?:\n|$)/.exec(src);
  if (!m)
    throw new SkillPackageError(
      'skill_invalid_manifest',
      `${MANIFEST} must start with YAML front matter between --- lines`,
    );
  let data: unknown;
  try {
    // A small alias cap: front matter never needs anchors, and a "billion laughs" must not expand.
    data = parseYaml(m[1]!, { maxAliasCount: 10, uniqueKeys: true });
  } catch (err) {
    throw new SkillPackageError(
      'skill_invalid_manifest',
      `front matter is not valid YAML: ${(err as Error).message.split('\n')[0]}`,
    );
  }
  if (!data || typeof data !== 'object' || Array.isArray(data))
    throw new SkillPackageError('skill_invalid_manifest', 'front matter must be a YAML mapping');
  const { name, description, ...metadata } = data as Record<string, unknown>;
  if (typeof name !== 'string' || !name.trim())
    throw new SkillPackageError('skill_invalid_manifest', 'front matter needs a name');
  const cleanName = name.trim();
  if (
    Array.from(cleanName).length > 64 ||
    CONTROL.test(cleanName) ||
    /[/\\]/.test(cleanName) ||
    cleanName === '.' ||
    cleanName === '..'
  )
    throw new SkillPackageError(
      'skill_invalid_manifest',
      'name must be 1–64 characters without slashes or control characters',
    );
  if (typeof description !== 'string' || !description.trim())
    throw new SkillPackageError('skill_invalid_manifest', 'front matter needs a description');
  if (Array.from(description.trim()).length > 1024)
    throw new SkillPackageError('skill_invalid_manifest', 'description is longer than 1024 characters');
  return {
    name: cleanName,
    description: description.trim().replace(/\s+/g, ' '),
    body: src.slice(m[0].length).trim(),
    metadata: toPlain(metadata),
  };
}

/** YAML dates and the like become JSON-safe values (the metadata is stored and returned as JSON). */
function toPlain(v: Record<string, unknown>): Record<string, unknown> {
  return JSON.parse(JSON.stringify(v)) as Record<string, unknown>;
}

/** Decodes UTF-8 text; a NUL byte or invalid UTF-8 means a binary file. */
function decodeText(path: string, bytes: Buffer): string {
  if (bytes.includes(0))
    throw new SkillPackageError('skill_binary_file', `${path} is a binary file; skills hold text only`);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes).replace(/^\uFEFF/, '');
  } catch {
    throw new SkillPackageError('skill_binary_file', `${path} is not UTF-8 text; skills hold text only`);
  }
}

/** Checks an entry's name and returns it normalised, or null for a directory / clutter. */
function checkedPath(entry: yauzl.Entry): string | null {
  // strictFileNames=false turns backslashes into slashes, so `..\x` is caught as traversal below.
  const raw = yauzl.getFileNameLowLevel(entry.generalPurposeBitFlag, entry.fileNameRaw, entry.extraFields, false);
  if (CONTROL.test(raw))
    throw new SkillPackageError('skill_invalid_archive', 'a file name contains control characters');
  if (/^[a-zA-Z]:/.test(raw) || raw.startsWith('/'))
    throw new SkillPackageError('skill_absolute_path', `absolute path in the archive: ${raw.slice(0, 200)}`);
  const segments = raw.split('/');
  if (segments.includes('..'))
    throw new SkillPackageError('skill_path_traversal', `path leaves the skill folder: ${raw.slice(0, 200)}`);
  const type = (entry.externalFileAttributes >>> 16) & 0o170000;
  if (type === 0o120000)
    throw new SkillPackageError('skill_link', `${raw.slice(0, 200)} is a symbolic link; skills hold plain files only`);
  if (type !== 0 && type !== 0o100000 && type !== 0o040000)
    throw new SkillPackageError('skill_link', `${raw.slice(0, 200)} is not a regular file`);
  if (raw.endsWith('/') || CLUTTER.test(raw)) return null;
  const clean = segments.filter((s) => s !== '' && s !== '.').join('/');
  if (!clean || Array.from(clean).length > 300)
    throw new SkillPackageError('skill_invalid_archive', 'a file name is empty or too long');
  return clean;
}

async function readEntry(zip: yauzl.ZipFile, entry: yauzl.Entry, path: string, limit: number): Promise<Buffer> {
  const stream = await zip.openReadStreamPromise(entry);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    size += chunk.length;
    // yauzl already fails a stream that outgrows its declared size; this is the belt to those braces.
    if (size > limit) {
      stream.destroy();
      throw new SkillPackageError('skill_file_too_large', `${path} is larger than ${limit} bytes`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/**
 * Reads and checks a skill zip. SKILL.md may sit at the root or inside one top-level folder
 * (how most tools zip a skill directory); every path is then relative to it.
 * @throws SkillPackageError naming the first refusal reason found.
 */
export async function readSkillZip(buffer: Buffer, limits: SkillImportLimits): Promise<SkillPackage> {
  if (buffer.length > limits.zipBytes)
    throw new SkillPackageError('skill_archive_too_large', `the archive is larger than ${limits.zipBytes} bytes`);
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.fromBufferPromise(buffer, {
      lazyEntries: true,
      decodeStrings: false,
      validateEntrySizes: true,
      strictFileNames: false,
    });
  } catch (err) {
    throw new SkillPackageError('skill_invalid_archive', `not a readable zip archive: ${(err as Error).message}`);
  }
  // Directory entries count toward this early cap too, so a central directory of a million
  // entries is refused before it is walked.
  if (zip.entryCount > limits.files * 4) {
    zip.close();
    throw new SkillPackageError(
      'skill_too_many_files',
      `the archive has ${zip.entryCount} entries; at most ${limits.files} files are allowed`,
    );
  }
  const files: { path: string; bytes: Buffer }[] = [];
  const seen = new Set<string>();
  let total = 0;
  try {
    for await (const entry of zip.eachEntry()) {
      const path = checkedPath(entry);
      if (path === null) continue;
      if (entry.isEncrypted()) throw new SkillPackageError('skill_encrypted_file', `${path} is encrypted`);
      if (!entry.canDecodeFileData())
        throw new SkillPackageError('skill_invalid_archive', `${path} uses an unsupported compression method`);
      if (files.length + 1 > limits.files)
        throw new SkillPackageError('skill_too_many_files', `more than ${limits.files} files in the archive`);
      if (seen.has(path.toLowerCase()))
        throw new SkillPackageError('skill_duplicate_path', `${path} appears twice in the archive`);
      seen.add(path.toLowerCase());
      if (entry.uncompressedSize > limits.fileBytes)
        throw new SkillPackageError('skill_file_too_large', `${path} is larger than ${limits.fileBytes} bytes`);
      total += entry.uncompressedSize;
      if (total > limits.totalBytes)
        throw new SkillPackageError(
          'skill_archive_too_large',
          `the files add up to more than ${limits.totalBytes} bytes uncompressed`,
        );
      files.push({ path, bytes: await readEntry(zip, entry, path, limits.fileBytes) });
    }
  } catch (err) {
    zip.close();
    if (err instanceof SkillPackageError) throw err;
    throw new SkillPackageError('skill_invalid_archive', `the archive is damaged: ${(err as Error).message}`);
  }
  return assemble(files);
}

function assemble(files: { path: string; bytes: Buffer }[]): SkillPackage {
  const isManifest = (p: string): boolean => p.toLowerCase() === 'skill.md';
  let prefix = '';
  if (!files.some((f) => isManifest(f.path))) {
    const tops = new Set(files.map((f) => (f.path.includes('/') ? f.path.split('/')[0] : '')));
    const [top] = [...tops];
    if (tops.size === 1 && top && files.some((f) => isManifest(f.path.slice(top.length + 1)))) prefix = `${top}/`;
    else
      throw new SkillPackageError(
        'skill_missing_manifest',
        `no ${MANIFEST} at the top of the archive (or of its one top-level folder)`,
      );
  }
  let manifest = '';
  const resources: SkillResource[] = [];
  for (const f of files) {
    const path = f.path.slice(prefix.length);
    const text = decodeText(path, f.bytes);
    if (isManifest(path)) manifest = text;
    else resources.push({ path, content: text, kind: resourceKind(path) });
  }
  resources.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { ...parseSkillMd(manifest), manifest, resources };
}

/** A zip of the skill as it was imported: SKILL.md and its files at the root. */
export function writeSkillZip(
  skill: { manifest: string; resources: { path: string; content: string }[] },
  mtime: Date,
): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  const opts = { mtime, mode: 0o100644 };
  zip.addBuffer(Buffer.from(skill.manifest, 'utf8'), MANIFEST, opts);
  for (const r of skill.resources) zip.addBuffer(Buffer.from(r.content, 'utf8'), r.path, opts);
  zip.end();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    zip.outputStream.on('data', (c: Buffer) => chunks.push(c));
    zip.outputStream.on('error', reject);
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
  });
}
