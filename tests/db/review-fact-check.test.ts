/**
 * The reviewer's packet on real MongoDB: after this turn's files come the fact check's lines —
 * what the turn wrote, checked against the project's other chapters and its cards — in the
 * session's language, and a note when the check ran out of its time.
 */
import { reviewContent } from '../../src/activities/step/review-evidence';
import { newId } from '../../src/db/models';
import { useScratchDb } from '../helpers/scratch-db';

const db = useScratchDb('review_fact_check');

/** A project with these files; the last one written by turn `turnId` (its first version). */
async function projectWith(files: { type: string; title: string; content: string }[]) {
  const projectId = await db.newProject();
  const turnId = newId();
  let last = '';
  for (const f of files)
    last = String((await db.models.File.create({ ...f, projectId, ownerId: 'u1', latestAuthor: 'ai' }))._id);
  const written = files[files.length - 1]!;
  await db.models.FileVersion.create({
    fileId: last,
    projectId,
    version: 1,
    content: written.content,
    author: 'ai',
    turnId,
    operation: 'create',
  });
  return turnId;
}

/** A budget no read here comes near, so a loaded test machine does not cut the checks that are not about it. */
const ROOMY = 5000;

test('contradictions of the cards and misquotes of earlier chapters are listed; what agrees is not', async () => {
  const turnId = await projectWith([
    { type: 'character', title: '林夏', content: '林夏，二十七岁，报社记者。' },
    { type: 'draft', title: '第二章', content: '父亲在码头上对她说：“潮水退了，就别回头看。”说完就走了。' },
    {
      type: 'draft',
      title: '第三章',
      content:
        '二十八岁的林夏站在码头上。她想起父亲说过的话：“潮水退了，就别再回头看。”\n' +
        '后来她才记起，父亲的原话是「潮水退了，就别回头看」。',
    },
  ]);
  const packet = await reviewContent(db.models, turnId, 4000, { language: 'zh', budgetMs: ROOMY });
  expect(packet).toContain('### 第三章');
  const lines = packet.split('\n').filter((l) => l.startsWith('[fact check]'));
  expect(lines).toEqual([
    '[fact check] 《第三章》写“二十八岁的林夏”（28 岁），卡片《林夏》写“林夏，二十七岁”（27 岁）。',
    '[fact check] 《第三章》把“潮水退了，就别再回头看”当作前文的原话，但前文里没有一字不差的这句；前文《第二章》写的是“潮水退了，就别回头看”。',
  ]);
});

test('a draft that agrees with the project gets no fact-check lines', async () => {
  const turnId = await projectWith([
    { type: 'character', title: 'Mara Quinn', content: 'Age: 34. Harbour pilot.' },
    { type: 'draft', title: 'Chapter 2', content: 'He said: "Never trust the tide after dark." Then he left.' },
    {
      type: 'draft',
      title: 'Chapter 3',
      content: 'Mara, thirty-four, remembered his words: "Never trust the tide after dark."',
    },
  ]);
  expect(await reviewContent(db.models, turnId, 4000, { budgetMs: ROOMY })).not.toContain('[fact check]');
});

test('a check past its time says so in the packet, in the session language', async () => {
  const turnId = await projectWith([
    { type: 'character', title: 'Mara Quinn', content: 'Mara, 34.' },
    { type: 'draft', title: 'Chapter 3', content: 'Mara, 35, ran to the quay.' },
  ]);
  // No time at all: the reads come back after it, or the matching stops before its first statement.
  const packet = await reviewContent(db.models, turnId, 4000, { language: 'en', budgetMs: 0 });
  expect(packet).toMatch(/\[fact check\] (?:Cut short at the 0 s limit|Not done: .* within 0 s)/);
  expect(packet).not.toContain('says “Mara, 35”');
  expect(await reviewContent(db.models, turnId, 4000, { budgetMs: ROOMY })).toContain(
    '[fact check] “Chapter 3” says “Mara, 35” (age 35)',
  );
});
