/**
 * Routes after an offer, vague edits and job commands on fresh wording: an offer is known by its
 * form and confirmed by a plain yes or by its own words again, never by anything that adds to it;
 * an edit that says nothing of what to change asks first; a pause said to come first stands
 * before a wait for the resume. Every case that could act is paired with one that must not.
 */
import { offerReplyOf } from '../../src/core/words/answers';
import { jobCommandOf } from '../../src/core/words/job-commands';
import { isOfferQuestion, proposedStep, type ProposedStep } from '../../src/core/words/proposals';
import { isVagueEditRequest, preRoute, requestAsksForPlan, type PreviousTurnFacts } from '../../src/core/words/routing';
import type { RoutingDecision, WorkAgent } from '../../src/core/plans';
import { read } from './read';

/** The turn before: it asked `question`, as the turn's preparation reads it. */
const asked = (question: string, agent: WorkAgent = 'writer', readOnly = false): PreviousTurnFacts => ({
  status: 'awaiting_author',
  stopReason: 'question_to_author',
  routing: {
    current_agent: agent,
    workflow_plan: 'quick',
    workflow_agents: [],
    write_content: !readOnly,
    read_only: readOnly,
    scope: '',
    clarify_first: false,
    source: 'llm',
    notes: [],
  },
  resume: null,
  askedQuestion: true,
  proposedChanges: 1,
  question,
  deliveredUnits: [],
});
const route = (message: string, previous: PreviousTurnFacts | null): RoutingDecision | null =>
  preRoute(read(message), previous);
const step = (question: string): ProposedStep => proposedStep(question)!;

describe('an offer is known by its form', () => {
  test.each([
    'Want a cliffhanger at the end of chapter 6?',
    'Do you want an epilogue?',
    '要我再出三个开头钩子吗？',
    'Shall I carry on to chapter 8?',
  ])('"%s" offers a step', (q) => expect(isOfferQuestion(q)).toBe(true));

  test.each(['Want a happy ending or a sad one?', 'What do you want a reader to feel at the end?'])(
    '"%s" asks, it offers nothing',
    (q) => expect(isOfferQuestion(q)).toBe(false),
  );

  test('a thing offered for a unit is added to that unit', () => {
    expect(step('Want a cliffhanger at the end of chapter 6?')).toMatchObject({
      action: 'edit',
      units: { kind: 'chapter', from: 6, to: 6 },
    });
    expect(route('Yes.', asked('Want a cliffhanger at the end of chapter 6?', 'hook_designer'))).toMatchObject({
      source: 'confirm_proposal',
      current_agent: 'writer',
      write_content: true,
      read_only: false,
    });
  });

  test('options offered are made by the agent that makes them, and write no prose', () => {
    expect(route('行', asked('要我再出三个开头钩子吗？', 'hook_designer'))).toMatchObject({
      source: 'confirm_proposal',
      current_agent: 'hook_designer',
      workflow_plan: 'hook_focus',
      write_content: false,
    });
    expect(route('sure', asked('Shall I come up with some names for the villain?'))).toMatchObject({
      source: 'confirm_proposal',
      current_agent: 'planner',
      write_content: false,
    });
  });
});

describe("a yes, or the offer's own words again, confirms it", () => {
  test.each<[string, string]>([
    ['可以，排吧', '要我把后面五章的大纲排出来吗？'],
    ['好 排吧', '要不要我把大纲按三幕结构重新排一下？'],
    ['对，改冷一点', '要我把师姐的对白改得冷一点吗？'],
    ['在第二章结尾加', '要不要我在第二章结尾加个钩子？'],
    ['嗯嗯 写吧 老板辛苦啦', '要我接着写第12章吗～'],
    ['要要要 亲你太懂了哈哈哈', '要不要我在第二章结尾加个钩子？'],
    ['好的 add it', 'Shall I add the night market arc to the outline?'],
    ['yeah swap it', 'Want me to swap the POV in chapter 2 to Eli?'],
    ['swap it in chapter 2', 'Want me to swap the POV in chapter 2 to Eli?'],
    ['go on then', 'Shall I carry on to chapter 8?'],
    ['yes add it thanks!', 'Shall I add the night market arc to the outline?'],
  ])('"%s" after "%s" confirms', (m, q) =>
    expect(route(m, asked(q, 'writer', true))).toMatchObject({ source: 'confirm_proposal', read_only: false }),
  );

  test('each clause is read as a yes, courtesy, an echo, or something else', () => {
    const s = step('要我把师姐的对白改得冷一点吗？');
    expect(offerReplyOf('好的', s)).toBe('yes');
    expect(offerReplyOf('老板辛苦啦', s)).toBe('courtesy');
    expect(offerReplyOf('改冷一点', s)).toBe('echo');
    expect(offerReplyOf('改热一点', s)).toBeNull();
    expect(offerReplyOf('👎', s)).toBeNull();
    expect(offerReplyOf('改冷一点？', s)).toBeNull();
    expect(offerReplyOf('改吧……', s)).toBeNull();
  });

  test('courtesy alone agrees to nothing', () => {
    expect(route('谢谢，老板辛苦啦', asked('要我接着写第12章吗～'))?.source).not.toBe('confirm_proposal');
    expect(route('thanks!', asked('Shall I carry on to chapter 8?'))?.source).not.toBe('confirm_proposal');
  });
});

describe('a reply that adds to the offer, refuses it, or says who does it does not confirm it', () => {
  test.each<[string, string]>([
    ['改冷一点，再加点动作', '要我把师姐的对白改得冷一点吗？'],
    ['改热一点', '要我把师姐的对白改得冷一点吗？'],
    ['师姐的对白', '要我把师姐的对白改得冷一点吗？'],
    ['我改', '要我把师姐的对白改得冷一点吗？'],
    ['你改吧', '要我把师姐的对白改得冷一点吗？'],
    ['加在第三章', '要不要我在第二章结尾加个钩子？'],
    ['要 加两个', '要不要我在第二章结尾加个钩子？'],
    ["i'll add it", 'Shall I add the night market arc to the outline?'],
    ["don't add it", 'Shall I add the night market arc to the outline?'],
    ['add it to chapter 3', 'Shall I add the night market arc to the outline?'],
    ['add it, and the harbor arc too', 'Shall I add the night market arc to the outline?'],
    ['swap it to mara', 'Want me to swap the POV in chapter 2 to Eli?'],
    ['swap chapter 3', 'Want me to swap the POV in chapter 2 to Eli?'],
    ['the outline', 'Shall I add the night market arc to the outline?'],
  ])('"%s" after "%s" goes to the router', (m, q) => expect(route(m, asked(q, 'writer', true))).toBeNull());

  test.each<[string, string]>([
    ['不改', '要我把师姐的对白改得冷一点吗？'],
    ['对，改冷一点 lol', '要我把师姐的对白改得冷一点吗？'],
    ['好 哈哈哈', '要我把师姐的对白改得冷一点吗？'],
    ['加吧 开玩笑的', '要不要我在第二章结尾加个钩子？'],
    ['add it later', 'Shall I add the night market arc to the outline?'],
    ['add it lol', 'Shall I add the night market arc to the outline?'],
    ['yes but', 'Shall I carry on to chapter 8?'],
  ])('"%s" after "%s" writes nothing', (m, q) =>
    expect(route(m, asked(q, 'writer', true))).toMatchObject({ source: 'decline_offer', write_content: false }),
  );

  test('a yes cut off by its own conjunction is no yes', () => {
    expect(route('yeah swap it but', asked('Want me to swap the POV in chapter 2 to Eli?'))).toBeNull();
    expect(route('go on then but', asked('Shall I carry on to chapter 8?'))).toBeNull();
  });
});

describe('an answer with an instruction of its own goes to the router', () => {
  test.each<[string, string, WorkAgent]>([
    ['晚上。然后顺便把第十章的开头也写了', '第九章的拍卖会，想放在白天还是晚上？', 'writer'],
    ['none of them write chapter 6 now', 'Which hook do you like best?', 'hook_designer'],
  ])('"%s" after "%s" is not inherited', (m, q, agent) =>
    expect(route(m, asked(q, agent))?.source).not.toBe('inherit_after_question'),
  );

  test.each<[string, string, WorkAgent]>([
    ['晚上 深夜那种', '第九章的拍卖会，想放在白天还是晚上？', 'writer'],
    ['改第五章', '先改哪一章？', 'writer'],
    ['check chapter 3', 'Which chapter should I check first?', 'quality_reviewer'],
  ])('"%s" answers "%s" and keeps its route', (m, q, agent) =>
    expect(route(m, asked(q, agent))?.source).toBe('inherit_after_question'),
  );
});

describe('vague edits are known by structure', () => {
  test.each([
    '第三章帮我润润色~ 宝',
    'make chapter 2 better 一点，感觉怪怪的',
    '第七章再改改，不太满意。。。',
    "fix chapter 8 pls, it's just off",
    '把第十章弄得更好看点',
    '提升一下文笔 第一章',
    'hmm its meh fix it',
    '改改第五章 感觉不对',
  ])('"%s" asks what to change first', (m) => {
    expect(isVagueEditRequest(read(m))).toBe(true);
    expect(route(m, null)).toMatchObject({ clarify_first: true, write_content: false });
  });

  test.each([
    '第三章感觉节奏不对，改一下',
    'fix chapter 8, the pacing is off',
    'fix chapter 8, its ending is off',
    '第七章再改改，打斗太拖了',
    '把第十章的对话弄得更好看点',
    '提升一下第一章开头的节奏',
  ])('"%s" says what to change and goes ahead', (m) => expect(isVagueEditRequest(read(m))).toBe(false));
});

describe('job commands on fresh wording', () => {
  const action = (m: string): string | null => jobCommandOf(read(m))?.action ?? null;

  test.each<[string, string]>([
    ['先暂停一下 job，等我看完第三章再说', 'pause'],
    ['hold on pause the job a sec', 'pause'],
    ['hang on cancel the job', 'cancel'],
    ['写到第几章了 老板~', 'status'],
    ['麻烦暂停下任务 谢谢亲~', 'pause'],
    ['ugh PAUSE the writing job', 'pause'],
    ['just cancel the job already', 'cancel'],
  ])('"%s" is %s', (m, a) => expect(action(m)).toBe(a));

  test.each([
    // The wait puts off the pause itself, or is no wait to go on, or the pause is not said to come first.
    '等我看完第三章再暂停任务',
    '先暂停一下 job，等我看完第三章再取消',
    '暂停一下 job，等我看完第三章再说',
    // Only a pause is read past a wait.
    '先取消任务，等我看完第三章再说',
    // A joke, a question, a condition, a report.
    '先暂停任务，等我看完第三章再说吧 哈哈骗你的',
    '先暂停任务，等我看完第三章再说？',
    '如果出错了，先暂停任务，等我看完再说',
    '我刚才已经把任务暂停了',
    'pause the job, hold on',
    'ok 大纲改好了，任务可以继续跑了',
  ])('"%s" pauses, resumes or cancels nothing', (m) => expect(['status', null]).toContain(action(m)));
});

describe('plan requests', () => {
  test.each(['我大纲已经写好了，直接开始写第12章', "The outline's done, write chapter 4."])(
    '"%s" says the plan is done: no plan is asked for',
    (m) => expect(requestAsksForPlan(m)).toBe(false),
  );
  test('asking for one still does', () => expect(requestAsksForPlan('帮我列一下后面十章的大纲吧')).toBe(true));
});

describe('a yes, a no or an answer, then only its reasons', () => {
  test('a yes or an order for the step, then a comment: confirmed', () => {
    const q = 'Would you like me to apply these fixes to chapter 4?';
    expect(route('Yes — apply them all. Every one of them is fair.', asked(q))?.source).toBe('confirm_proposal');
    expect(route('Yes. The middle has felt slow to me for weeks.', asked(q))?.source).toBe('confirm_proposal');
    expect(route('Go ahead and rework it.', asked('Shall I rework the last scene of chapter 4?'))?.source).toBe(
      'confirm_proposal',
    );
  });
  test('what follows the yes narrows it, adds to it or names another unit: the router reads it', () => {
    const q = 'Would you like me to apply these fixes to chapter 4?';
    expect(route('Yes. Only the first two, though.', asked(q))?.source).not.toBe('confirm_proposal');
    expect(route('Yes. Chapter 5 as well.', asked(q))?.source).not.toBe('confirm_proposal');
    expect(route('Yes. Also rename Mara to Mira.', asked(q))?.source).not.toBe('confirm_proposal');
  });
  test('a no, then its reasons: nothing is written', () => {
    const q = 'Want me to tighten the opening of chapter 2?';
    expect(route('No, leave it. The slack is on purpose — she is tired, and so is the prose.', asked(q))).toMatchObject(
      {
        source: 'decline_offer',
        read_only: true,
      },
    );
    expect(route('No. Tighten chapter 3 instead.', asked(q))?.source).not.toBe('decline_offer');
  });
  test('a short answer to a question, then its reasons, keeps the route', () => {
    const q = 'Should the story be told by Anna or by Lin?';
    expect(
      route("Anna, I think — she has the most to lose, and Lin's view would give it away.", asked(q))?.source,
    ).toBe('inherit_after_question');
    expect(
      route('1931. Far enough on that the war is a memory.', asked('What year is the epilogue set in?'))?.source,
    ).toBe('inherit_after_question');
    expect(
      route('Anna. She has the most to lose. Also add a scene at the docks where she finds out.', asked(q))?.source,
    ).not.toBe('inherit_after_question');
    expect(route('Different thing — add a storm to the timeline.', asked(q))?.source).not.toBe(
      'inherit_after_question',
    );
  });
});

describe('a vague edit beside a comment on the text', () => {
  test('a feeling, then "make it better": asks first', () => {
    expect(isVagueEditRequest(read('Chapter 4 feels lifeless to me. Could you make it better?'))).toBe(true);
    expect(isVagueEditRequest(read('第三章读着总觉得不对劲，麻烦你润色润色。'))).toBe(true);
    expect(isVagueEditRequest(read('Fine. Now fix chapter 2 up a bit.'))).toBe(true);
  });
  test('a comment that says where or which way to change it: not vague', () => {
    expect(isVagueEditRequest(read('The dialogue in chapter 4 is stiff. Please improve it.'))).toBe(false);
    expect(isVagueEditRequest(read('第三章太长了，帮我改改。'))).toBe(false);
    expect(isVagueEditRequest(read('Chapter 4 drags. Improve it and add a storm.'))).toBe(false);
  });
});
