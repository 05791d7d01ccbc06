/**
 * Project notes with provenance. Notes are stored as
 * plain text in three sections: entries with no marked source, entries the author
 * confirmed in their own words (【作者确认】), and the AI's proposals waiting for the
 * author (【AI 提议·待作者确认】). The heading lines parse back into the sections, so the
 * stored text, the context rendering and an author's hand edit all read the same way.
 *
 * Pure module: the update_project tool and the context builder both use it.
 */

export const CONFIRMED_HEADING = '【作者确认】';
export const PROPOSALS_HEADING = '【AI 提议·待作者确认】';
/** Notes and proposals together, as stored. */
export const NOTES_BUDGET_CHARS = 4000;

export interface ProjectNotes {
  unmarked: string[];
  confirmed: string[];
  proposals: string[];
}

type Section = keyof ProjectNotes;

/** Collapses whitespace so a quote matches across line breaks and double spaces. */
const norm = (s: string): string => s.replace(/\s+/gu, ' ').trim();

/** The section a heading line opens, if it is one (extra words after the heading are allowed). */
function headingOf(line: string): Section | null {
  const t = line.trim().replace(/^#+\s*/u, '');
  if (t.startsWith(CONFIRMED_HEADING)) return 'confirmed';
  if (t.startsWith(PROPOSALS_HEADING)) return 'proposals';
  return null;
}

/** One entry per non-empty line, without its list marker ("- ", "* ", "• "). */
export function noteEntries(text: string): string[] {
  return text
    .split('\n')
    .map((l) => norm(l.replace(/^\s*[-*•]\s+/u, '')))
    .filter((l) => l.length > 0 && headingOf(l) === null);
}

/** Parses stored notes (or their context rendering) back into the three sections. */
export function parseProjectNotes(text: string): ProjectNotes {
  const out: ProjectNotes = { unmarked: [], confirmed: [], proposals: [] };
  let section: Section = 'unmarked';
  for (const line of text.split('\n')) {
    const heading = headingOf(line);
    if (heading) section = heading;
    else out[section].push(...noteEntries(line));
  }
  return out;
}

/** The stored form: unmarked entries first, then each marked section under its heading. */
export function renderProjectNotes(n: ProjectNotes): string {
  const list = (xs: string[]) => xs.map((x) => `- ${x}`).join('\n');
  return [
    n.unmarked.length ? list(n.unmarked) : '',
    n.confirmed.length ? `${CONFIRMED_HEADING}\n${list(n.confirmed)}` : '',
    n.proposals.length ? `${PROPOSALS_HEADING}\n${list(n.proposals)}` : '',
  ]
    .filter(Boolean)
    .join('\n\n');
}

/**
 * Notes as an agent reads them: three sections apart, the proposals marked as not canon.
 * The heading lines start with the stored headings, so this text parses back the same.
 */
export function renderNotesForContext(text: string): string {
  const n = parseProjectNotes(text);
  const list = (xs: string[]) => xs.map((x) => `- ${x}`).join('\n');
  return [
    'Notes:',
    n.unmarked.length ? list(n.unmarked) : '',
    n.confirmed.length
      ? `${CONFIRMED_HEADING} (confirmed by the author, in their own words: canon)\n${list(n.confirmed)}`
      : '',
    n.proposals.length
      ? `${PROPOSALS_HEADING} (AI proposals the author has not confirmed: NOT canon, not settled facts; do not write them into the story as given)\n${list(n.proposals)}`
      : '',
  ]
    .filter(Boolean)
    .join('\n');
}

/** Trailing sentence punctuation is formatting, not wording: "他怕水。" quotes "他怕水". */
const bare = (s: string): string => norm(s).replace(/[\s。．.!！?？;；,，、…]+$/u, '');

/**
 * An entry is the author's own words only when it is itself one of the quotes the model
 * cites — or a contiguous part of one — and that quote appears verbatim in the author's
 * message of this turn. One quote vouches for no other entry.
 */
export function isAuthorQuote(entry: string, quotes: readonly string[], authorMessage: string): boolean {
  const e = bare(entry);
  if ([...e].length < 2) return false;
  const message = norm(authorMessage);
  return quotes.some((q) => {
    const quote = norm(q);
    return quote.length > 0 && message.includes(quote) && quote.includes(e);
  });
}

export interface NotesUpdate {
  /** New entries, one per line. */
  notes?: string;
  /** The AI's complete list of proposals: replaces the proposal section. */
  proposals?: string;
  authorQuotes: readonly string[];
  authorMessage: string;
}

export interface MergedNotes {
  notes: ProjectNotes;
  text: string;
  /** Entries of `notes` that were not verbatim author quotes, kept as proposals instead. */
  recordedAsProposals: string[];
  /** Proposals the author's quote confirmed this time. */
  confirmedNow: string[];
}

/**
 * Merges an update into stored notes. Entries already stored keep their section; a new
 * entry (or a proposal now quoted by the author) is confirmed only as {@link isAuthorQuote}
 * says, else it becomes a proposal. Unmarked and confirmed entries are never dropped here:
 * they are the author's (or of unknown source), and the model only controls its proposals.
 */
export function mergeNotes(storedText: string, update: NotesUpdate): MergedNotes {
  const stored = parseProjectNotes(storedText);
  const next: ProjectNotes = {
    unmarked: [...stored.unmarked],
    confirmed: [...stored.confirmed],
    proposals: update.proposals !== undefined ? noteEntries(update.proposals) : [...stored.proposals],
  };
  const recordedAsProposals: string[] = [];
  const confirmedNow: string[] = [];
  const has = (xs: string[], e: string) => xs.some((x) => norm(x) === e);
  for (const entry of noteEntries(update.notes ?? '')) {
    if (has(next.confirmed, entry) || has(next.unmarked, entry)) continue;
    if (isAuthorQuote(entry, update.authorQuotes, update.authorMessage)) {
      next.confirmed.push(entry);
      next.proposals = next.proposals.filter((p) => norm(p) !== entry);
      if (has(stored.proposals, entry)) confirmedNow.push(entry);
    } else {
      recordedAsProposals.push(entry);
      if (!has(next.proposals, entry)) next.proposals.push(entry);
    }
  }
  // A proposal the author has confirmed meanwhile is not proposed again.
  next.proposals = next.proposals.filter((p) => !has(next.confirmed, norm(p)) && !has(next.unmarked, norm(p)));
  return { notes: next, text: renderProjectNotes(next), recordedAsProposals, confirmedNow };
}
