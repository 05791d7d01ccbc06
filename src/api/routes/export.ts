/**
 * `GET /projects/:id/export?format=md|epub|docx[&frontMatter=true|false]`: the
 * manuscript as a file to download. Read-only: it reads the project's files and writes
 * nothing. A project with no chapter text yet is a 409 `nothing_to_export` rather than an
 * empty book (an EPUB needs at least one chapter in its spine, and an empty download would
 * look like lost work).
 */
import { Router } from 'express';
import { z } from 'zod';
import type { AppDeps } from '../context';
import { documentRoute, toOpenApiPath } from '../route-specs';
import { userOf } from '../auth';
import { ConflictError } from '../errors';
import { ownedProject } from '../ownership';
import { parseId, parseQuery } from '../validation';
import { objectIdSchema } from '../../core/domain';
import { loadManuscript } from '../export/manuscript';
import { toMarkdown } from '../export/markdown';
import { toDocx } from '../export/docx';
import { toEpub } from '../export/epub';

export const EXPORT_FORMATS = {
  md: { type: 'text/markdown; charset=utf-8', ext: 'md' },
  epub: { type: 'application/epub+zip', ext: 'epub' },
  docx: { type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', ext: 'docx' },
} as const;
type Format = keyof typeof EXPORT_FORMATS;

export const exportQuery = z
  .object({
    format: z.enum(['md', 'epub', 'docx'], { message: 'format must be one of md, epub, docx' }).default('md'),
    frontMatter: z.enum(['true', 'false'], { message: 'frontMatter must be true or false' }).default('true'),
  })
  .strict();

documentRoute({
  method: 'get',
  path: `/api/v1${toOpenApiPath('/projects/:projectId/export')}`,
  summary:
    'The manuscript as a download (md default, epub, docx): chapters in order by number with their titles, front matter (title, author, summary) unless frontMatter=false. 409 nothing_to_export when no chapter has text',
  tag: 'projects',
  params: z.object({ projectId: objectIdSchema }),
  query: exportQuery,
  produces: { type: 'application/octet-stream', schema: z.string().meta({ format: 'binary' }) },
  errors: [400, 401, 404, 409],
});

/**
 * `attachment` with an ASCII fallback name and the real one as RFC 5987 `filename*` (a
 * Chinese title stays Chinese in every current browser); nothing in either can end the
 * header value or name a path.
 */
export function contentDisposition(title: string, ext: string): string {
  const clean =
    title
      .replace(/[\p{Cc}\p{Cf}/\\:*?"<>|]+/gu, ' ')
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, 120) || 'manuscript';
  // NFKD turns full-width punctuation into ASCII (`：` → `:`): strip the unsafe set again after it.
  const folded = clean
    .normalize('NFKD')
    .replace(/[^\x20-\x7E]/g, '')
    .replace(/[/\\:*?"<>|%;]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  const ascii = /[A-Za-z0-9]/.test(folded) ? folded : 'manuscript';
  const encoded = encodeURIComponent(`${clean}.${ext}`).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}.${ext}"; filename*=UTF-8''${encoded}`;
}

export function exportRouter(deps: AppDeps): Router {
  const r = Router();
  r.get('/projects/:projectId/export', async (req, res) => {
    const q = parseQuery(exportQuery, req.query);
    const project = await ownedProject(deps.models, userOf(req), parseId(req.params.projectId, 'projectId'));
    const m = await loadManuscript(deps.models, project);
    if (!m.chapters.length)
      throw new ConflictError(
        'the project has no chapter with text yet: nothing to export',
        { projectId: m.projectId },
        'nothing_to_export',
      );
    const format = q.format as Format;
    const frontMatter = q.frontMatter === 'true';
    const body =
      format === 'md'
        ? Buffer.from(toMarkdown(m, frontMatter), 'utf8')
        : format === 'docx'
          ? await toDocx(m, frontMatter)
          : await toEpub(m, frontMatter);
    res.setHeader('Content-Type', EXPORT_FORMATS[format].type);
    res.setHeader('Content-Disposition', contentDisposition(m.title, EXPORT_FORMATS[format].ext));
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.send(body);
  });
  return r;
}
