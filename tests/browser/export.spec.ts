/**
 * Export from the manuscript sidebar: Markdown, EPUB and DOCX downloads of the chapters in
 * order, the same manuscript the API exports (DOCX read back with mammoth, EPUB opened with
 * JSZip).
 */
import fs from 'node:fs';
import JSZip from 'jszip';
import mammoth from 'mammoth';
import { AUTH, authorFile, BASE, createProject, studio, expect, test } from './helpers';

test('export buttons download md, epub and docx with the chapters in order', async ({ page }) => {
  const projectId = await createProject(`Export ${Date.now()}`);
  await authorFile(projectId, 'Chapter 2', 'The second night the bell rang twice.');
  await authorFile(projectId, 'Chapter 1', 'The first night the bell rang once.');
  await page.goto(studio(`projects/${projectId}/chat`));
  const group = page.getByRole('group', { name: 'Export' });

  const download = async (label: string) => {
    const [d] = await Promise.all([page.waitForEvent('download'), group.getByRole('button', { name: label }).click()]);
    return { name: d.suggestedFilename(), bytes: fs.readFileSync((await d.path())!) };
  };

  const md = await download('MD');
  expect(md.name).toMatch(/\.md$/);
  const text = md.bytes.toString('utf8');
  expect(text.indexOf('The first night')).toBeGreaterThan(-1);
  expect(text.indexOf('The first night')).toBeLessThan(text.indexOf('The second night'));
  // The same manuscript the API exports.
  const viaApi = await (
    await fetch(`${BASE()}/api/v1/projects/${projectId}/export?format=md`, { headers: AUTH() })
  ).text();
  expect(text).toBe(viaApi);

  const docx = await download('DOCX');
  expect(docx.name).toMatch(/\.docx$/);
  const raw = (await mammoth.extractRawText({ buffer: docx.bytes })).value;
  expect(raw).toContain('Chapter 1');
  expect(raw.indexOf('The first night')).toBeLessThan(raw.indexOf('The second night'));

  const epub = await download('EPUB');
  expect(epub.name).toMatch(/\.epub$/);
  const zip = await JSZip.loadAsync(epub.bytes);
  expect(await zip.file('mimetype')!.async('string')).toBe('application/epub+zip');
  const xhtml = await Promise.all(
    Object.keys(zip.files)
      .filter((f) => f.endsWith('.xhtml'))
      .map((f) => zip.file(f)!.async('string')),
  );
  expect(xhtml.join('\n')).toContain('The second night the bell rang twice.');
});
