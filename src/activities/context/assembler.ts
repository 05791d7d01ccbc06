/**
 * Context assembly, once per request. The first model step of a
 * turn builds the turn's context — the project-context block, the working set before the
 * author's message, the history window — and stores it as one TurnContext document; every
 * later step and every retry reads that document instead of rebuilding. So `[full]` means
 * "as of the start of this request", and a step costs a read, not ~10 queries and a
 * re-tokenisation of the project. Storing it and reading it back: turn-context.ts.
 */
import type { Models, TurnContextDoc } from '../../db/models';
import { authorLines } from '../../db/file-store';
import { type ContextItem, MeasureCache, type Packed, pack } from './budget';
import { renderManifest } from './manifest';
import { byPackingOrder, type Candidate, chapterNo, Priority, prioritize } from './priorities';
import { type Chunk, pickSnippets, rankChunks, retrievableFiles, type ScoredChunk } from './retrieval';
import { countStable, countTokens, MESSAGE_OVERHEAD_TOKENS } from './tokens';
import { renderWorkingSet, userContent, type WorkingSetFile, workingSetIds } from './working-set';
import { type LoadedFile, loadedFiles, type TurnSources, turnSources } from './prefetch';
import { isBodyFileType } from '../../core/domain';
import { detectLanguage } from '../../core/text';
import type { WorkerCaches } from '../worker-caches';

export interface ContextSettings {
  contextTokens: number;
  historyTokens: number;
  ledgerCeiling: number;
  workingSetMaxFiles: number;
  workingSetMaxChars: number;
}

/** Retrieved snippets offered per request, and from one file at most. */
export const SNIPPET_LIMIT = 6;
export const SNIPPETS_PER_FILE = 2;
/**
 * Share of the ledger kept free of the working set for the system prompt, project brief,
 * packets and the run's own tool loop (16k of the default 160k); history takes what is left.
 */
export const WORKING_SET_RESERVE_SHARE = 0.1;

export const CONTEXT_HEADER =
  '## Related content (items marked [full] are the complete text of the file as of the start of this request; a file changed since is marked as changed: read it again with query_files(id))';

/** Marks `[full]` items whose file changed during the request, in a context or working-set text. */
export function markChanged(text: string, changedIds: string[]): string {
  let out = text;
  for (const id of changedIds)
    out = out.replaceAll(
      `(id=${id}) [full]`,
      `(id=${id}) [changed during this request: the text below is from its start; read the current text with query_files(id="${id}")]`,
    );
  return out;
}

/** The project's standing material: it changes seldom, and every agent and chapter is shown it. */
const STANDING_TYPES: readonly string[] = ['outline', 'setting', 'character'];
/** Why a chapter is in the context that marks it as this turn's work: it stays with what moves. */
const TURN_WORK_REASONS: readonly Candidate['reason'][] = ['focus', 'attached', 'asked_chapter'];

/**
 * The context in two parts, in the order a provider's prefix cache rewards:
 * - what stays: the project's standing material shown whole, by type and then by id, then
 *   the chapters shown whole, in book order — a book grows at its end, so the next
 *   chapter's prompt repeats all but the newest chapter;
 * - what moves from turn to turn: the file list (a new chapter joins it), the author's quotes,
 *   the chapters this turn works on (the focus, attached and asked-for ones: an edit marks
 *   them changed mid-turn, which must not cut the cached start), cut files and snippets, in
 *   priority order, sent after the session history, which only grows at its end.
 * Only the order changes: what is shown was packed already.
 */
function cacheFriendly(
  placed: Packed['placed'],
  header: string,
  byId: Map<string, LoadedFile>,
  turnWork: ReadonlySet<string>,
): { standing: string; moving: string } {
  const CHAPTERS = STANDING_TYPES.length;
  // Each item's place once: its rank (a standing type, the chapters after them, or -1: it
  // moves) and, for a chapter, its number (else its place in the book): ids derived from keys
  // (a job's chapters) do not grow with creation, and the newest chapter must come last.
  const ranked = placed.map((p) => {
    const f = byId.get(p.item.fileId);
    const type = f?.type ?? '';
    const chapter = isBodyFileType(type);
    const rank =
      p.mode !== 'full' ? -1 : chapter ? (turnWork.has(p.item.fileId) ? -1 : CHAPTERS) : STANDING_TYPES.indexOf(type);
    return { p, rank, place: rank === CHAPTERS ? (chapterNo(f!) ?? f!.order) : 0 };
  });
  const standing = ranked
    .filter((r) => r.rank >= 0)
    .sort((a, b) => a.rank - b.rank || a.place - b.place || (a.p.item.fileId < b.p.item.fileId ? -1 : 1));
  const moving = ranked.filter((r) => r.rank < 0);
  const [headerLine, ...rest] = header.split('\n');
  return {
    standing: [headerLine, ...standing.map((r) => r.p.rendered)].join('\n\n'),
    moving: [rest.join('\n'), ...moving.map((r) => r.p.rendered)].join('\n\n'),
  };
}

function snippetItem(c: ScoredChunk, file: LoadedFile): ContextItem {
  return {
    fileId: c.fileId,
    title: file.title,
    priority: Priority.RELEVANT,
    kind: 'snippet',
    text: c.text,
    start: c.start,
    end: c.end,
    fileChars: file.content.length,
  };
}

/** Chunks the model already sees: all of a `[full]` file, the shown prefix of a cut one. */
function coveredBy(packed: Packed): (c: Chunk) => boolean {
  const shown = new Map<string, number>();
  for (const p of packed.placed)
    if (p.item.kind === 'file') shown.set(p.item.fileId, p.mode === 'full' ? Infinity : p.shownChars);
  return (c) => c.end <= (shown.get(c.fileId) ?? -1);
}

type SourceTurn = TurnSources['turn'];
type SessionMessage = TurnSources['messages'][number];

/** The context's header: what it is, the project's file list, and the passages the author quoted. */
function contextHeader(turn: SourceTurn, files: LoadedFile[], candidates: Candidate[], contextTokens: number): string {
  return [
    CONTEXT_HEADER,
    '## Project files',
    renderManifest(
      files,
      new Set(candidates.filter((c) => c.priority <= Priority.RELEVANT).map((c) => c.fileId)),
      contextTokens,
    ),
    turn.quotes.length ? `\n## Passages the author quoted\n${turn.quotes.map((q) => `> ${q}`).join('\n')}` : '',
  ].join('\n');
}

/** The project's chunks ranked for the query (the project's index kept by the worker), and how long that took. */
function retrieve(
  files: LoadedFile[],
  query: { text: string; names: string[] },
  indexes: WorkerCaches['retrievalIndexes'],
  projectId: string,
): { ranked: ScoredChunk[]; retrievalMs: number } {
  const retrievalStarted = performance.now();
  const ranked = rankChunks(retrievableFiles(files), query, { indexes, key: projectId });
  return { ranked, retrievalMs: performance.now() - retrievalStarted };
}

/** The files and snippets that fit the context's budget, by priority; `whole`: the files shown whole. */
function packContext(
  candidates: Candidate[],
  byId: Map<string, LoadedFile>,
  ranked: ScoredChunk[],
  headerTokens: number,
  contextTokens: number,
  measuredTexts: WorkerCaches['measuredTexts'],
): { packed: Packed; whole: Set<string>; placed: Packed['placed'] } {
  const fileItem = (c: Candidate): ContextItem | null => {
    const f = byId.get(c.fileId)!;
    return f.content ? { fileId: f.id, title: f.title, priority: c.priority, kind: 'file', text: f.content } : null;
  };
  const tiers = (tier: (p: Priority) => boolean): ContextItem[] =>
    candidates
      .filter((c) => tier(c.priority))
      .map(fileItem)
      .filter((i): i is ContextItem => i !== null);
  const critical = tiers((p) => p === Priority.CRITICAL);
  // The whole CONSTRAINT tier is offered; when it does not fit, the packing order inside it
  // decides what is shown whole, what is cut and what is left for query_files.
  const named = new Set(candidates.filter((c) => c.reason === 'named').map((c) => c.fileId));
  const packingKey = (i: ContextItem) => ({
    named: named.has(i.fileId),
    importance: byId.get(i.fileId)!.importance,
    chars: i.text.length,
  });
  const constraint = tiers((p) => p === Priority.CONSTRAINT).sort((a, b) =>
    byPackingOrder(packingKey(a), packingKey(b)),
  );
  const upToRelevant = [...critical, ...constraint, ...tiers((p) => p === Priority.RELEVANT)];
  const inspiration = tiers((p) => p === Priority.INSPIRATION);
  const cache = new MeasureCache(measuredTexts);
  // Snippets sit at the end of RELEVANT. Retrieval leaves out only what was finally shown:
  // a first pass finds the selection, the second offers snippets outside it.
  const attempt = (covered: (c: Chunk) => boolean): Packed => {
    const snippets = pickSnippets(ranked, covered, SNIPPET_LIMIT, SNIPPETS_PER_FILE).map((c) =>
      snippetItem(c, byId.get(c.fileId)!),
    );
    return pack([...upToRelevant, ...snippets, ...inspiration], contextTokens, headerTokens, cache);
  };
  const first = attempt(() => false);
  const packed = attempt(coveredBy(first));
  // A file that came in whole only in the second pass makes its snippets redundant.
  const whole = new Set(packed.placed.filter((p) => p.mode === 'full').map((p) => p.item.fileId));
  const placed = packed.placed.filter((p) => !(p.mode === 'snippet' && whole.has(p.item.fileId)));
  return { packed, whole, placed };
}

/**
 * The working set: current text of the files the last two replies touched, in what room the
 * ledger leaves after the context and the author's message; its lines in the session's language.
 */
async function workingSetFor(
  models: Models,
  settings: ContextSettings,
  turnId: string,
  messages: SessionMessage[],
  byId: Map<string, LoadedFile>,
  whole: Set<string>,
  room: { contextTokens: number; message: string; language: 'zh' | 'en' },
) {
  const { contextTokens, language } = room;
  const messageTokens = countTokens(room.message);
  const wsFiles: WorkingSetFile[] = await Promise.all(
    workingSetIds(messages, turnId)
      .map((id) => byId.get(id))
      .filter((f): f is LoadedFile => f !== undefined && f.type !== 'folder')
      .map(async (f) => ({
        id: f.id,
        title: f.title,
        type: f.type,
        content: f.content,
        version: f.version,
        authorEdits: f.latestAuthor === 'author' ? await authorLines(models, f.id) : [],
      })),
  );
  return renderWorkingSet(
    wsFiles,
    whole,
    {
      maxFiles: settings.workingSetMaxFiles,
      maxChars: settings.workingSetMaxChars,
      maxTokens: Math.max(
        0,
        Math.floor(settings.ledgerCeiling * (1 - WORKING_SET_RESERVE_SHARE) - contextTokens - messageTokens),
      ),
    },
    language,
  );
}

/** History window, newest first, each message measured once; steps only take a prefix of it. */
function historyWindow(
  messages: SessionMessage[],
  stableCounts: WorkerCaches['stableTokenCounts'],
  historyTokens: number,
): { role: string; content: string; tokens: number }[] {
  const history: { role: string; content: string; tokens: number }[] = [];
  let historyUsed = 0;
  for (const m of messages) {
    const content = m.role === 'assistant' ? `${m.content}${breadcrumbLine(m.breadcrumb)}` : m.content;
    // A stored message never changes: counted once per worker (the same history comes back every turn).
    const tokens = countStable(stableCounts, `message:${String(m._id)}`, content) + MESSAGE_OVERHEAD_TOKENS;
    if (historyUsed + tokens > historyTokens) break;
    historyUsed += tokens;
    history.push({ role: m.role, content, tokens });
  }
  return history;
}

/**
 * Builds the turn's context. Reads only; the caller stores it. The worker's `caches` hold the
 * turn's early reads, the project's retrieval index and the counts of texts seen before.
 * `language`: the session's reply language (prepareTurn); without it, the message's.
 */
export async function assembleTurnContext(
  models: Models,
  caches: WorkerCaches,
  settings: ContextSettings,
  turnId: string,
  scope: string,
  language?: 'zh' | 'en',
): Promise<TurnContextDoc> {
  const started = performance.now();
  // Retrieval ranks every file's text, so the whole project is read once per turn (prefetch.ts).
  const { turn, rawFiles, messages, skillCatalog } = await turnSources(models, caches.turnSources, turnId);
  const files = loadedFiles(rawFiles);
  const byId = new Map(files.map((f) => [f.id, f]));
  const query = [turn.message, scope].filter(Boolean).join('\n');
  const { candidates, names } = prioritize({
    files,
    focusFileId: turn.focusFileId ?? null,
    attachedFileIds: turn.attachedFileIds,
    query,
  });

  const header = contextHeader(turn, files, candidates, settings.contextTokens);
  const headerTokens = countTokens(header);

  const { ranked, retrievalMs } = retrieve(files, { text: query, names }, caches.retrievalIndexes, turn.projectId);

  const { packed, whole, placed } = packContext(
    candidates,
    byId,
    ranked,
    headerTokens,
    settings.contextTokens,
    caches.measuredTexts,
  );
  const turnWork = new Set(candidates.filter((c) => TURN_WORK_REASONS.includes(c.reason)).map((c) => c.fileId));
  const { standing: context, moving: contextMoving } = cacheFriendly(placed, header, byId, turnWork);

  const ws = await workingSetFor(models, settings, turnId, messages, byId, whole, {
    contextTokens: packed.tokens,
    message: turn.message,
    language: language ?? detectLanguage(turn.message),
  });
  const user = userContent(ws.text, turn.message);
  const history = historyWindow(messages, caches.stableTokenCounts, settings.historyTokens);

  const shown = [...[...whole].map((fileId) => ({ fileId, version: byId.get(fileId)!.version })), ...ws.whole];
  return {
    _id: turnId,
    sessionId: turn.sessionId,
    projectId: turn.projectId,
    ownerId: turn.ownerId,
    jobId: turn.jobId ?? null,
    message: turn.message,
    focusFileId: turn.focusFileId ?? null,
    skillCatalog,
    context,
    contextMoving,
    contextTokens: packed.tokens,
    userContent: user,
    userTokens: countTokens(user),
    shown,
    history,
    stats: {
      files: files.length,
      full: placed.filter((p) => p.mode === 'full').map((p) => p.item.fileId),
      truncated: placed.filter((p) => p.mode === 'truncated').map((p) => p.item.fileId),
      snippets: placed.filter((p) => p.mode === 'snippet').map((p) => `${p.item.fileId}:${p.item.start}`),
      leftOut: packed.dropped.length,
      reasons: Object.fromEntries(candidates.map((c) => [c.fileId, c.reason])),
      workingSet: { listed: ws.listed, whole: ws.whole.map((w) => w.fileId) },
      names,
      retrievalMs: Math.round(retrievalMs),
      buildMs: Math.round(performance.now() - started),
    },
    createdAt: new Date(),
  } as TurnContextDoc;
}

function breadcrumbLine(b: { op?: string | null; fileId?: string | null; title?: string | null }[]): string {
  if (!b.length) return '';
  return `\n\n[earlier tool operations] ${b.map((x) => `${x.op} "${x.title}" (id=${x.fileId})`).join('; ')}`;
}
