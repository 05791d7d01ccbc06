/**
 * Context assembly (seeds 000/001 "ContextAssembler"): project files ranked
 * CRITICAL › CONSTRAINT › RELEVANT › INSPIRATION and fitted to a token budget. Each item's
 * title line says whether it is the full text or where to read the rest, so the model
 * never mistakes a fragment for the file.
 */
import { encode } from 'gpt-tokenizer';
import { countInBoundedRuns } from '../shared/token-runs';
import type { Models } from '../db/models';
import { planUnits } from '../agents/file-stream';
import { rememberSeen } from './tools/file-store';

export enum Priority {
  CRITICAL = 0,
  CONSTRAINT = 1,
  RELEVANT = 2,
  INSPIRATION = 3,
}

interface Item {
  id: string;
  title: string;
  type: string;
  version: number;
  content: string;
  priority: Priority;
}

export const countTokens = (text: string): number => countInBoundedRuns(text, (t) => encode(t).length);

/** Cuts text to roughly `tokens` tokens (by characters, then checked). */
function fitToTokens(text: string, tokens: number): string {
  if (tokens <= 0) return '';
  if (countTokens(text) <= tokens) return text;
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (countTokens(text.slice(0, mid)) <= tokens) lo = mid;
    else hi = mid - 1;
  }
  return text.slice(0, lo);
}

export interface AssembleInput {
  turnId: string;
  projectId: string;
  message: string;
  focusFileId: string | null;
  attachedFileIds: string[];
  quotes: string[];
  budgetTokens: number;
}

export interface AssembledContext {
  text: string;
  tokens: number;
  /** Files given in full (the model has seen their current version). */
  fullFileIds: string[];
}

/** Builds the "project context" block for an agent step and records what was shown in full. */
export async function assembleContext(models: Models, input: AssembleInput): Promise<AssembledContext> {
  // The manifest needs no text: chapters' bodies are loaded only for the items chosen below.
  const files = await models.File.find({ projectId: input.projectId, deletedAt: null })
    .select({ content: 0 })
    .sort({ type: 1, order: 1 })
    .lean();
  const manifest = files.map(
    (f) => `- ${f.title} (id=${String(f._id)}, ${f.type}, ${f.words} words${f.latestAuthor === 'author' ? ', edited by the author' : ''})`,
  );
  const wanted = new Set(planUnits(input.message));
  const drafts = files.filter((f) => f.type === 'draft' || f.type === 'script');
  const items: Item[] = [];
  const add = (f: (typeof files)[number], priority: Priority): void => {
    if (f.type === 'folder' || items.some((i) => i.id === String(f._id))) return;
    items.push({ id: String(f._id), title: f.title, type: f.type, version: f.versionCount, content: '', priority });
  };
  for (const f of files) if (String(f._id) === input.focusFileId || input.attachedFileIds.includes(String(f._id))) add(f, Priority.CRITICAL);
  for (const f of files) if (f.type === 'character' || f.type === 'setting' || f.type === 'outline') add(f, Priority.CONSTRAINT);
  // The chapter before the one asked for (or the latest chapter) keeps continuity.
  const asked = [...wanted][0];
  const previous = asked ? drafts.find((d) => planUnits(d.title)[0] === asked - 1) : drafts[drafts.length - 1];
  if (previous) add(previous, Priority.CONSTRAINT);
  for (const d of drafts) if (wanted.has(planUnits(d.title)[0] ?? -1)) add(d, Priority.RELEVANT);
  for (const d of drafts.slice(-3)) add(d, Priority.INSPIRATION);
  items.sort((a, b) => a.priority - b.priority);
  const bodies = await models.File.find({ _id: { $in: items.map((i) => i.id) } }).select({ content: 1 }).lean();
  for (const b of bodies) {
    const item = items.find((i) => i.id === String(b._id));
    if (item) item.content = b.content;
  }

  const header = [
    '## Project files',
    manifest.length ? manifest.join('\n') : '(no files yet)',
    input.quotes.length ? `\n## Passages the author quoted\n${input.quotes.map((q) => `> ${q}`).join('\n')}` : '',
    '\n## Related content (items marked [full] are the complete current text as of the start of this request)',
  ].join('\n');
  let used = countTokens(header);
  const parts: string[] = [header];
  const fullFileIds: string[] = [];
  for (const item of items) {
    const left = input.budgetTokens - used;
    if (left <= 50) break;
    const titleFull = `### ${item.title} (id=${item.id}) [full]`;
    const tokens = countTokens(item.content) + 20;
    if (tokens <= left) {
      parts.push(`${titleFull}\n${item.content}`);
      used += tokens;
      fullFileIds.push(item.id);
      continue;
    }
    const cut = fitToTokens(item.content, left - 40);
    // A tiny fragment of a non-critical file misleads more than it helps: list it only.
    if (item.priority !== Priority.CRITICAL && cut.length < 500 && cut.length < item.content.length / 2) continue;
    parts.push(
      `### ${item.title} (id=${item.id}) [truncated: showing ${cut.length}/${item.content.length} characters; full text: query_files(id="${item.id}")]\n${cut}`,
    );
    used += countTokens(cut) + 40;
  }
  await Promise.all(fullFileIds.map((id) => rememberSeen(models, input.turnId, id, items.find((i) => i.id === id)!.version)));
  return { text: parts.join('\n\n'), tokens: used, fullFileIds };
}
