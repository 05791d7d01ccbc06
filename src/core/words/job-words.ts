/**
 * The words of a job command (core/words/job-orders.ts): the job named, pause, resume and
 * cancel, what may close the order and what only restates it. Read with the courtesy and
 * typo words of the grammar of orders (order-words.ts). Constants only; pure module.
 */
import { CLOSE_EN, CLOSE_ZH, PARTICLE_ZH } from './order-words';

/** The job, as an author names it. */
export const JOB_NOUN_EN = [
  'job',
  'the job',
  'this job',
  'that job',
  'the current job',
  'my job',
  'the generation',
  'generation',
  'the batch',
  'the batch job',
  'the batch run',
  'batch run',
  'this batch',
  'that batch',
  'the run',
  'the writing job',
  'the whole job',
  'the entire job',
  'the batch generation',
];
export const JOB_NOUN_ZH = [
  '任務',
  '任务',
  '这个任务',
  '生成任务',
  '批量任务',
  '写作任务',
  '当前任务',
  '长任务',
  '整个任务',
  '后台任务',
];
/**
 * What may describe the job before its noun ("the running job", "the auto-write job", "自动写作任务"):
 * words that say which job it is by how it runs, never by a chapter or another file.
 */
export const JOB_DESCRIBED_EN = {
  det: ['the', 'this', 'that', 'my', 'our'],
  words: [
    'running',
    'current',
    'active',
    'ongoing',
    'background',
    'auto-write',
    'auto-writing',
    'autowrite',
    'auto',
    'automatic',
    'writing',
    'drafting',
    'chapter-writing',
    'long',
    'big',
    'whole',
    'entire',
    'batch',
  ],
  nouns: ['job', 'run', 'generation', 'batch'],
};
export const JOB_DESCRIBED_ZH = {
  det: ['这个', '那个', '我的', '现在的', '正在跑的', '正在运行的', '在跑的', '当前的'],
  words: ['自动', '自动写作', '写作', '自动写', '后台', '批量', '生成', '长', '整个', '续写', '连载'],
  nouns: ['任务', '任務'],
};
export const PAUSE_EN = ['pause', 'suspend', 'hold'];
export const PAUSE_ZH = ['暫停', '暂停', '停一下', '先停', '挂起', '停一停'];
export const RESUME_EN = ['resume', 'unpause', 'continue', 'carry on with'];
export const RESUME_ZH = ['繼續', '继续', '恢复', '接着跑', '接着'];
export const CANCEL_EN = ['cancel', 'abort', 'kill', 'terminate', 'abandon'];
export const CANCEL_ZH = ['取消', '取消掉', '终止', '中止'];
/** What may close a job order ("pause the job for now", "暂停任务吧"). */
export const JOB_CLOSE = [
  ...CLOSE_EN,
  'for a bit',
  'for a while',
  'for the moment',
  'for a sec',
  'for a second',
  'for a minute',
  'for today',
  'a sec',
  'a second',
  'a minute',
  'a bit',
  ...PARTICLE_ZH,
  ...CLOSE_ZH,
  '先',
  '一下',
  '运行',
  '跑',
  '下去',
];

/** Before a job order, a call to stop and listen ("hold on pause the job a sec"): the order is what follows it. */
export const JOB_LEAD_EN = ['hold on', 'hang on'];

/** After a job order, words that only say the same again: "继续任务吧 接着写", "把任务取消掉 不写了". */
export const JOB_RESTATED: Record<'pause' | 'resume' | 'cancel', readonly string[]> = {
  pause: ['先别写了', '先不写了'],
  resume: ['接着写', '继续写', '写下去', '接着写吧', '继续写吧'],
  cancel: ['不写了', '不用写了', '别写了'],
};
