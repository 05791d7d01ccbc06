/**
 * The grammar of orders (core/words/orders.ts), second half: orders joined in one clause and what
 * they keep, the English "write … from scratch" / "start … over" forms and the Chinese 把 / 给我 /
 * 了 forms of a file order, exception and keep clauses, the files a clause opens with, job orders
 * (by name, by id, "put the job on hold"), what merely mentions a job, orders for an offered step,
 * and accounting for every word of a clause. Chinese is cut one character a word (the segmenter's
 * worst case) unless a test cuts it as a dictionary segmenter such as jieba does.
 */
import {
  accountFor,
  bareJobVerbOf,
  exceptionClauseOf,
  type FileAction,
  type FileOrder,
  fileOrderOf,
  fileOrdersOf,
  jobOrderOf,
  mentionsJobControl,
  namesJob,
  openingTargets,
  stepOrderOf,
  type Target,
} from '../../src/core/words/orders';
import { characterSegmenter, type ReadClause, readMessage, type Segmenter } from '../../src/core/words/reading';

/** A dictionary segmenter: the listed words whole (longest first), any other Han character a word of its own. */
const cutting =
  (...dictionary: string[]): Segmenter =>
  (run) => {
    const out: string[] = [];
    for (let i = 0; i < run.length;) {
      const word = dictionary.filter((w) => run.startsWith(w, i)).sort((a, b) => b.length - a.length)[0] ?? run[i]!;
      out.push(word);
      i += word.length;
    }
    return out;
  };

/** The one clause of a message. */
const clause = (message: string, segment: Segmenter = characterSegmenter): ReadClause => {
  const clauses = readMessage(message, segment).sentences.flatMap((s) => s.clauses);
  expect(clauses).toHaveLength(1);
  return clauses[0]!;
};

const ch = (from: number, to = from): Target => ({ kind: 'unit', unit: { kind: 'chapter', from, to } });
const num = (n: number): Target => ({ kind: 'number', n });
const title = (t: string): Target => ({ kind: 'title', title: t });
const order = (action: FileAction, targets: Target[], except: Target[] = []): FileOrder => ({
  action,
  targets,
  except,
  implicit: false,
});
const implicit = (action: FileAction): FileOrder => ({ action, targets: [], except: [], implicit: true });
const orders = (message: string, titles: string[] = []) => fileOrdersOf(clause(message), titles);

describe('orders joined in one clause, and what they keep', () => {
  test('"… and keep 3" leaves the bare number out of the order', () => {
    expect(orders('delete chapters 1 to 5 and keep 3')).toEqual([order('delete', [ch(1, 5)], [num(3)])]);
  });

  test('"删除第三章并保留第四章" leaves chapter 4 out', () => {
    expect(orders('删除第三章并保留第四章')).toEqual([order('delete', [ch(3)], [ch(4)])]);
  });

  test('two orders joined by "and" are both read, with no exceptions of their own', () => {
    expect(orders('delete chapter 3 and rewrite chapter 4')).toEqual([
      order('delete', [ch(3)]),
      order('rewrite', [ch(4)]),
    ]);
  });

  test.each([
    ['delete chapter 3 and keep chapter 4 in mind'],
    ['delete chapter 3 and keep going'],
    ['delete chapter 3 and'],
  ])('"%s": a keep with words left over, or nothing after "and", is no order', (m) => {
    expect(orders(m)).toEqual([]);
  });

  test('fileOrderOf gives the first order of the clause, or null', () => {
    expect(fileOrderOf(clause('delete chapter 3 and rewrite chapter 4'))).toEqual(order('delete', [ch(3)]));
    expect(fileOrderOf(clause('chapter 3 is fine'))).toBeNull();
  });
});

describe('what follows the object of an English order', () => {
  test('an exception after a range is kept with the order', () => {
    expect(orders('delete chapters 1-5 except 3')).toEqual([order('delete', [ch(1, 5)], [num(3)])]);
  });

  test('closing words may follow an exception or a model to match', () => {
    expect(orders('delete chapters 1 to 5 except 3 please')).toEqual([order('delete', [ch(1, 5)], [num(3)])]);
    expect(orders('rewrite chapter 5 to match chapter 3 please')).toEqual([order('rewrite', [ch(5)])]);
  });

  test('words that are neither closing words nor an exception make it no order', () => {
    expect(orders('delete chapter 3 tomorrow')).toEqual([]);
  });
});

describe('"write … from scratch" and "start … over" are rewrites', () => {
  test.each([
    ['write chapter 3 from scratch', ch(3)],
    ['start chapter 3 over', ch(3)],
    ['start chapter 3 from scratch', ch(3)],
    ['start over on chapter 3', ch(3)],
    ['start over with chapter 3', ch(3)],
  ])('"%s" rewrites the chapter', (m, target) => {
    expect(orders(m)).toEqual([order('rewrite', [target])]);
  });

  test('"write it from scratch" rewrites the file pointed at', () => {
    expect(orders('write it from scratch')).toEqual([order('rewrite', [{ kind: 'pointer' }])]);
  });

  test('"start over" with no object rewrites the open file', () => {
    expect(orders('start over')).toEqual([implicit('rewrite')]);
  });

  test('the other verbs stay themselves: a delete is not read as a write or a start', () => {
    expect(orders('delete chapter 3')).toEqual([order('delete', [ch(3)])]);
  });

  test.each([
    ['write chapter 3', 'writing a chapter is not rewriting it'],
    ['start chapter 3', 'starting a chapter is writing it'],
    ['write from scratch', 'no file is named'],
    ['start from scratch', 'no file is named'],
    ['write chapter 3 and rewrite chapter 4 from scratch', '"from scratch" belongs to the second order only'],
  ])('"%s" is no rewrite order (%s)', (m) => {
    expect(orders(m)).toEqual([]);
  });

  test('a title in the tail that only looks like "up" or "again" does not make "write" a rewrite', () => {
    expect(orders('write chapter 3 to match Setup', ['Setup'])).toEqual([]);
    expect(orders('write chapter 3 to match Upheaval', ['Upheaval'])).toEqual([]);
  });
});

describe('Chinese file orders: 把 / 将, 给我, 了, 掉', () => {
  test('将 marks the object like 把', () => {
    expect(orders('将第三章删除')).toEqual([order('delete', [ch(3)])]);
  });

  test('把 with no object before the verb is no order', () => {
    expect(orders('把全部删掉')).toEqual([]);
  });

  test('with 把 the verb may be English', () => {
    expect(orders('把 Notes delete 掉', ['Notes'])).toEqual([order('delete', [title('Notes')])]);
  });

  test('掉 after a verb that does not include it, before the object', () => {
    expect(orders('删除掉第三章')).toEqual([order('delete', [ch(3)])]);
  });

  test('a verb with no object and a softening particle points at the open file', () => {
    expect(orders('删了吧')).toEqual([implicit('delete')]);
  });

  test('了 with 就行 after it, or 给我 before the verb, is an order', () => {
    expect(orders('第三章删了就行')).toEqual([order('delete', [ch(3)])]);
    expect(orders('第三章给我删了')).toEqual([order('delete', [ch(3)])]);
    expect(orders('给我的信给我删了', ['给我的信'])).toEqual([order('delete', [title('给我的信')])]);
  });

  test('"…删了" alone tells what happened, even when the title holds 给我', () => {
    expect(orders('第三章删了')).toEqual([]);
    expect(orders('给我的信删了', ['给我的信'])).toEqual([]);
  });

  test('a model to follow after an adverb is not a target', () => {
    expect(orders('全部按第3章的风格重写')).toEqual([implicit('rewrite')]);
  });
});

describe('exception and keep clauses', () => {
  const exceptions = (m: string) => exceptionClauseOf(clause(m));

  test.each([
    ['except chapter 6', [ch(6)]],
    ['except 6', [num(6)]],
    ['除了第六章以外', [ch(6)]],
    ['第6章除外', [ch(6)]],
    ['3和6除外', [num(3), num(6)]],
    ['leave 3 alone', [num(3)]],
    ['keep chapter 3 intact', [ch(3)]],
    ['把第三章留着', [ch(3)]],
    ['将第三章保留', [ch(3)]],
  ])('"%s" names what is left out', (m, want) => {
    expect(exceptions(m)).toEqual(want);
  });

  test.each([['delete chapter 6'], ['no need to keep chapter 6'], ['chapter 6 is good']])(
    '"%s" is no exception clause',
    (m) => {
      expect(exceptions(m)).toBeNull();
    },
  );
});

describe('the files a clause opens with', () => {
  const opening = (m: string) => openingTargets(clause(m));

  test.each([['第三章写得太烂了'], ['Chapter 3 again feels flat'], ['Chapter 3 introduces too many characters']])(
    '"%s" is about chapter 3',
    (m) => {
      expect(opening(m)).toEqual([ch(3)]);
    },
  );

  test.each([
    ['第三章的结尾太弱了', 'a part of the chapter'],
    ['this is a mess', 'a pointer, not a named file'],
    ['that and chapter 3 are both weak', 'a pointer among the files'],
    ['hello there', 'no reference at all'],
  ])('"%s" opens with no whole file (%s)', (m) => {
    expect(opening(m)).toBeNull();
  });
});

describe('job orders', () => {
  const job = (m: string) => jobOrderOf(clause(m));
  const ID = '64b7f0c2e4b0a1d2c3e4f5a6';

  test.each([
    ['put the job on hold', 'pause'],
    ['put the job on hold now', 'pause'],
    ['取消掉任务', 'cancel'],
    ['暂停下任务', 'pause'],
    ['将任务暂停', 'pause'],
    [`pause the job ${ID}`, 'pause'],
  ])('"%s" is an order to %s the job', (m, action) => {
    expect(job(m)).toEqual({ action });
  });

  test.each([
    ['put the job on pause', '"put … on" takes only "hold"'],
    ['put the job aside', 'not put on hold'],
    ['pause job 123', 'a number that is no job id'],
    [`pause the job ${ID}f`, 'twenty-five hex digits are no job id'],
    [`pause the job ${ID.slice(0, 12)} ${ID.slice(12)}`, 'an id broken by a space is no job id'],
  ])('"%s" is no job order (%s)', (m) => {
    expect(job(m)).toBeNull();
  });

  test('a bare job verb with a pointer after it', () => {
    expect(bareJobVerbOf(clause('cancel that'))).toBe('cancel');
    expect(bareJobVerbOf(clause('取消掉'))).toBe('cancel');
    expect(bareJobVerbOf(clause('cancel chapter 3'))).toBeNull();
  });
});

describe('what names or mentions the job', () => {
  const jieba = cutting('任务', '停掉', '结束', '不要了');

  test.each([['the batch is stuck'], ['the batch run is slow']])('"%s" names the job', (m) => {
    expect(namesJob(clause(m))).toBe(true);
  });

  test('"任务不要了" names the job', () => {
    expect(namesJob(clause('任务不要了', jieba))).toBe(true);
  });

  test('a clause without a job noun does not name it', () => {
    expect(namesJob(clause('chapter 3 is slow'))).toBe(false);
  });

  test.each([
    ['halt the job', 'stop'],
    ['把任务停掉', 'stop'],
    ['任务停了吧', 'stop'],
    ['结束任务', 'stop'],
    ['puase the job', 'pause'],
  ])('"%s" mentions job control (%s)', (m, want) => {
    expect(mentionsJobControl(clause(m, jieba))).toBe(want);
  });

  test.each([
    ["let's pause here", 'no job is named'],
    ['the job is slow', 'no control verb'],
    ['the job continues to fail', 'a form of "continue" that is not a typo of a control verb'],
  ])('"%s" mentions no job control (%s)', (m) => {
    expect(mentionsJobControl(clause(m))).toBeNull();
  });
});

describe('orders for an offered step', () => {
  const step = (m: string) => stepOrderOf(clause(m));

  test.each([
    ['write chapter 2', 'write', [ch(2)]],
    ['写吧', 'write', []],
    ['continue with chapter 3', 'write', [ch(3)]],
    ['keep going on chapter 3', 'write', [ch(3)]],
    ['tighten up chapter 2', 'edit', [ch(2)]],
    ['write chapter 2 next', 'write', [ch(2)]],
    ['write chapter 2 go ahead', 'write', [ch(2)]],
    ['改第二章吧', 'edit', [ch(2)]],
  ])('"%s" is a %s order', (m, action, targets) => {
    expect(step(m)).toEqual({ action, targets });
  });

  test.each([['hello'], ['chapter 2'], ['write chapter 2 tomorrow']])('"%s" is no step order', (m) => {
    expect(step(m)).toBeNull();
  });
});

describe('accounting for every word of a clause', () => {
  test('a segmenter word made of several phrases is cut into them', () => {
    const words = clause('先不动', cutting('先不动'));
    expect(accountFor(words, { lead: ['先'], keep: ['不动'] })).toEqual({ lead: 1, keep: 1 });
  });

  test('a word in two lists counts for the list given first', () => {
    const lists = { verb: ['improve'], object: ['it'], filler: ['please', 'it'] };
    expect(accountFor(clause('improve it please'), lists)).toEqual({ verb: 1, object: 1, filler: 1 });
  });

  test('the longest phrase wins, whichever list holds it', () => {
    const lists = { filler: ['please', 'the'], object: ['the chapter', 'it'], verb: ['improve'] };
    expect(accountFor(clause('improve the chapter please'), lists)).toEqual({ filler: 1, object: 1, verb: 1 });
  });

  test('a word in no list leaves the clause unaccounted for', () => {
    expect(accountFor(clause('improve it now'), { verb: ['improve'], object: ['it'] })).toBeNull();
  });
});
