/**
 * Builds skill zips for tests, friendly and hostile. yazl refuses to write `..` and absolute
 * names, so hostile names are written as same-length placeholders and patched in the bytes
 * afterwards (local header and central directory alike), the way an attacker's tool would.
 */
import yazl from 'yazl';

export interface ZipEntry {
  path: string;
  content: string | Buffer;
  mode?: number;
  /** Store uncompressed (default: deflate). */
  store?: boolean;
}

export function zipOf(entries: ZipEntry[]): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const e of entries)
    zip.addBuffer(Buffer.isBuffer(e.content) ? e.content : Buffer.from(e.content, 'utf8'), e.path, {
      mtime: new Date('2026-01-01T00:00:00Z'),
      ...(e.mode !== undefined ? { mode: e.mode } : {}),
      compress: !e.store,
    });
  zip.end();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    zip.outputStream.on('data', (c: Buffer) => chunks.push(c));
    zip.outputStream.on('error', reject);
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
  });
}

/** Replaces every occurrence of an entry name in the archive bytes (same length only). */
export function renameInZip(zip: Buffer, from: string, to: string): Buffer {
  if (Buffer.byteLength(from) !== Buffer.byteLength(to)) throw new Error('renameInZip needs names of the same length');
  const out = Buffer.from(zip);
  const needle = Buffer.from(from);
  let at = out.indexOf(needle);
  if (at < 0) throw new Error(`${from} not in the archive`);
  while (at >= 0) {
    Buffer.from(to).copy(out, at);
    at = out.indexOf(needle, at + needle.length);
  }
  return out;
}

/** Sets the "encrypted" flag bit on every entry (local headers and central directory). */
export function markEncrypted(zip: Buffer): Buffer {
  const out = Buffer.from(zip);
  for (let i = 0; i + 4 <= out.length; i++) {
    const sig = out.readUInt32LE(i);
    if (sig === 0x04034b50) out.writeUInt16LE(out.readUInt16LE(i + 6) | 1, i + 6);
    else if (sig === 0x02014b50) out.writeUInt16LE(out.readUInt16LE(i + 8) | 1, i + 8);
  }
  return out;
}

export function skillMd(name: string, description: string, body: string, extra = ''): string {
  return `---\nname: ${name}\ndescription: ${description}\n${extra}---\n\n${body}\n`;
}

/** A valid skill zip: SKILL.md plus files. */
export function skillZip(
  name: string,
  description: string,
  body: string,
  files: Record<string, string> = {},
  folder = '',
): Promise<Buffer> {
  return zipOf([
    { path: `${folder}SKILL.md`, content: skillMd(name, description, body) },
    ...Object.entries(files).map(([path, content]) => ({ path: `${folder}${path}`, content })),
  ]);
}
