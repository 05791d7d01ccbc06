/** Project notes with provenance: three sections in plain text, quotes that vouch only for themselves. */
import {
  CONFIRMED_HEADING,
  isAuthorQuote,
  mergeNotes,
  parseProjectNotes,
  PROPOSALS_HEADING,
  renderNotesForContext,
  renderProjectNotes,
} from '../../src/activities/tools/project-notes';

const MESSAGE = '记住：林默是左撇子。另外，故事发生在 1998 年的青岛。';

test('notes are stored as plain text whose headings parse back into the three sections', () => {
  const notes = { unmarked: ['旧笔记：港口城市'], confirmed: ['林默是左撇子'], proposals: ['林默小时候溺过水'] };
  const text = renderProjectNotes(notes);
  expect(text).toBe(
    `- 旧笔记：港口城市\n\n${CONFIRMED_HEADING}\n- 林默是左撇子\n\n${PROPOSALS_HEADING}\n- 林默小时候溺过水`,
  );
  expect(parseProjectNotes(text)).toEqual(notes);
  // Free text from before provenance existed is all unmarked.
  expect(parseProjectNotes('A port city.\nRains a lot.')).toEqual({
    unmarked: ['A port city.', 'Rains a lot.'],
    confirmed: [],
    proposals: [],
  });
});

test('the context renders the sections apart with proposals marked as not canon, and that text parses back too', () => {
  const text = renderProjectNotes({ unmarked: ['港口城市'], confirmed: ['林默是左撇子'], proposals: ['林默怕水'] });
  const ctx = renderNotesForContext(text);
  const proposalsLine = ctx.split('\n').find((l) => l.startsWith(PROPOSALS_HEADING))!;
  expect(proposalsLine).toMatch(/NOT canon/);
  expect(ctx.split('\n').find((l) => l.startsWith(CONFIRMED_HEADING))).toMatch(/confirmed by the author/);
  expect(ctx.indexOf('林默是左撇子')).toBeLessThan(ctx.indexOf(PROPOSALS_HEADING));
  expect(ctx.indexOf('林默怕水')).toBeGreaterThan(ctx.indexOf(PROPOSALS_HEADING));
  const back = parseProjectNotes(ctx.replace(/^Notes:\n/, ''));
  expect(back).toEqual({ unmarked: ['港口城市'], confirmed: ['林默是左撇子'], proposals: ['林默怕水'] });
});

test('an entry is author-confirmed only when it is itself a verbatim quote (or a contiguous part) of the author message', () => {
  const quotes = ['林默是左撇子'];
  expect(isAuthorQuote('林默是左撇子', quotes, MESSAGE)).toBe(true);
  expect(isAuthorQuote('林默是左撇子。', quotes, MESSAGE)).toBe(true);
  expect(isAuthorQuote('左撇子', quotes, MESSAGE)).toBe(true);
  // Paraphrase, an invented quote, and a quote that vouches for another entry.
  expect(isAuthorQuote('林默惯用左手', ['林默惯用左手'], MESSAGE)).toBe(false);
  expect(isAuthorQuote('林默是左撇子', ['林默是左撇子，而且怕水'], MESSAGE)).toBe(false);
  expect(isAuthorQuote('故事发生在青岛', quotes, MESSAGE)).toBe(false);
  expect(isAuthorQuote('子', quotes, MESSAGE)).toBe(false);
  expect(isAuthorQuote('故事发生在 1998 年的青岛', ['故事发生在  1998 年的青岛'], MESSAGE)).toBe(true);
});

test('merge: a new entry without its own quote becomes a proposal; proposals replace the proposal section; author entries are never dropped', () => {
  const first = mergeNotes('- 港口城市', {
    notes: '林默是左撇子\n林默小时候溺过水',
    authorQuotes: ['林默是左撇子'],
    authorMessage: MESSAGE,
  });
  expect(first.notes).toEqual({ unmarked: ['港口城市'], confirmed: ['林默是左撇子'], proposals: ['林默小时候溺过水'] });
  expect(first.recordedAsProposals).toEqual(['林默小时候溺过水']);

  const second = mergeNotes(first.text, { proposals: '林默有个妹妹', authorQuotes: [], authorMessage: '继续' });
  expect(second.notes).toEqual({ unmarked: ['港口城市'], confirmed: ['林默是左撇子'], proposals: ['林默有个妹妹'] });

  // The author now says it in their own words: the proposal is confirmed and leaves the proposals.
  const third = mergeNotes(second.text, {
    notes: '林默有个妹妹',
    authorQuotes: ['林默有个妹妹'],
    authorMessage: '对，林默有个妹妹。',
  });
  expect(third.notes).toEqual({ unmarked: ['港口城市'], confirmed: ['林默是左撇子', '林默有个妹妹'], proposals: [] });
  expect(third.confirmedNow).toEqual(['林默有个妹妹']);
});
