/**
 * Pre-routing at its edges (src/core/words/routing.ts): how an answer to an offered step is read —
 * a plain order for exactly the offered step routes to it, anything that holds it back, hedges,
 * jokes or asks back writes nothing, in the language of the offer — and the length and spacing
 * limits of the phrase detectors, and what the confirmation guard takes from the offer.
 */
import { declinedOfferRouting } from '../../src/core/words/proposals';
import {
  applyConfirmationGuard,
  isContinueMessage,
  isShortAnswer,
  isVagueEditRequest,
  preRoute,
  type PreviousTurnFacts,
} from '../../src/core/words/routing';
import type { RoutingDecision } from '../../src/core/plans';
import { previousTurn, routing as baseRouting } from '../helpers/rule-fixtures';
import { read } from './read';

const routing = (over: Partial<RoutingDecision> = {}): RoutingDecision => baseRouting({ scope: 'scope', ...over });
const offer = (question: string, over: Partial<PreviousTurnFacts> = {}): PreviousTurnFacts =>
  previousTurn(routing(), { status: 'awaiting_author', askedQuestion: true, question, ...over });

/** "Shall I revise chapter 2?": the offered step is an edit of chapter 2. */
const REVISE_2 = offer('Shall I revise chapter 2?');
const REVISE_ZH = offer('要我帮你改吗？');

const confirmed = (m: string, p: PreviousTurnFacts = REVISE_2) => preRoute(read(m), p)?.source === 'confirm_proposal';

describe('an order for exactly the offered step routes to it', () => {
  test.each(['tighten it', 'tighten chapter 2', 'yes, tighten it', 'ok, tighten chapter 2'])(
    '"%s" after "revise chapter 2?"',
    (m) =>
      expect(preRoute(read(m), REVISE_2)).toMatchObject({
        source: 'confirm_proposal',
        current_agent: 'writer',
        write_content: true,
        scope: 'chapter 2',
      }),
  );

  test.each([
    'write it',
    'tighten chapter 3',
    'tighten episode 2',
    'tighten chapters 1-2',
    'tighten chapters 2-3',
    'tighten chapter 2 and chapter 5',
    'tighten the rest',
  ])('"%s" is another step or another unit: not a yes, and no route is inherited', (m) =>
    expect(preRoute(read(m), REVISE_2)).toBeNull(),
  );

  test('an offer that names no unit is not taken up by an order that names one', () => {
    expect(confirmed('tighten it', offer('Shall I revise it?'))).toBe(true);
    expect(preRoute(read('tighten chapter 2'), offer('Shall I revise it?'))).toBeNull();
  });

  test('"Why not? Tighten it" asks back first: no yes', () => {
    expect(preRoute(read('why not? tighten it'), REVISE_2)).toBeNull();
  });
});

describe('"why not?" agrees, in all its spellings', () => {
  test.each(['why not?', 'why not ?', 'why not??', 'Whynot?', 'why not!'])('"%s"', (m) =>
    expect(confirmed(m)).toBe(true),
  );
});

describe('an answer that holds the step back writes nothing and says the reply was unclear', () => {
  const unclear = (language: 'zh' | 'en') => declinedOfferRouting(language, true);
  test.each([
    'which part exactly?',
    'yes, wait',
    'sure lol',
    'tighten it...',
    'Tighten it. Hmm...',
    'I think so',
    'tighten it, after lunch',
    'Tighten it. After lunch.',
    'do it tomorrow',
    'yes but',
  ])('"%s"', (m) => expect(preRoute(read(m), REVISE_2)).toEqual(unclear('en')));

  test('in the language of the offer, not of the reply', () => {
    expect(preRoute(read('do it tomorrow'), REVISE_ZH)).toEqual(unclear('zh'));
    expect(preRoute(read('yes but'), REVISE_ZH)).toEqual(unclear('zh'));
    expect(preRoute(read('no thanks'), REVISE_ZH)).toEqual(declinedOfferRouting('zh'));
    expect(preRoute(read('明天再说'), REVISE_2)).toEqual(unclear('en'));
    expect(preRoute(read('不用了'), REVISE_2)).toEqual(declinedOfferRouting('en'));
  });
});

describe('phrase detectors at their limits', () => {
  test('continue: runs of spaces and punctuation count as one space', () => {
    expect(isContinueMessage('Please, continue')).toBe(true);
    expect(isContinueMessage('keep  going')).toBe(true);
  });

  test('vague edits: up to 60 characters of the trimmed message', () => {
    const sixty = 'can you please polish this chapter a little bit more, thanks';
    expect(Array.from(sixty)).toHaveLength(60);
    expect(isVagueEditRequest(read(sixty))).toBe(true);
    expect(isVagueEditRequest(read(`${sixty}   \n`))).toBe(true);
    expect(isVagueEditRequest(read(`${sixty}!`))).toBe(false);
  });

  test('short answers: a run of spaces is one gap between words', () => {
    expect(isShortAnswer('go  with  the  second  one  please')).toBe(true);
  });
});

describe('the confirmation guard reads the offered unit from what the previous turn delivered', () => {
  const d = routing({ scope: 'chapter 4', read_only: false, write_content: true });
  const next = (over: Partial<PreviousTurnFacts> = {}) =>
    offer('Shall I write the next chapter?', { routing: routing({ scope: 'chapter 4' }), ...over });

  test('after chapter 4, the next chapter is chapter 5', () =>
    expect(applyConfirmationGuard(d, 'yes', next({ deliveredUnits: [4] })).scope).toBe('chapter 5'));

  test('nothing delivered: no unit is known, and the router scope stands', () =>
    expect(applyConfirmationGuard(d, 'yes', next())).toBe(d));

  test('an offer of no recognisable step still drops an inherited read-only', () =>
    expect(
      applyConfirmationGuard(
        routing({ read_only: true }),
        'yes',
        offer('Shall I do that?', { routing: routing({ read_only: true }) }),
      ).read_only,
    ).toBe(false));
});
