/**
 * The persona's answer to a next-step suggestions request (src/agents/prompts/suggestions.ts):
 * a JSON array of three short next steps in the author's language, shaped by what the turn
 * did (a chapter written → the next chapter; a plan → the first chapter), so `npm start`
 * shows suggestions without a real model.
 */
import { SUGGESTIONS_HEADER } from '../../core/model/markers';
import { chapterNumber, replyLanguage } from '../conversation';
import { messageText } from '../tokens';
import type { ChatCompletionRequest } from '../types';

/** True when the request is the engine's suggestions call. */
export function isSuggestionsRequest(body: ChatCompletionRequest): boolean {
  const system = body.messages.find((m) => m.role === 'system' || m.role === 'developer');
  return !!system && messageText(system).startsWith(SUGGESTIONS_HEADER);
}

export function suggestionsReply(body: ChatCompletionRequest): { content: string; toolCalls: [] } {
  const all = body.messages.map((m) => messageText(m)).join('\n');
  const lang = replyLanguage(body.messages);
  const chapter = chapterNumber(all);
  const planned = /\((outline)\)/.test(all);
  // A chapter the turn moved to the trash is not one to review next.
  const trashed = /in the trash|回收站/.test(all);
  const items =
    lang === 'zh'
      ? [
          chapter ? `继续写第${chapter + 1}章` : planned ? '按大纲写第1章' : '写下一章',
          trashed ? '审阅大纲，看看还缺哪些章节' : chapter ? `审阅第${chapter}章的节奏和对话` : '审阅刚才写的内容',
          '为主要人物补充人物小传',
        ]
      : [
          chapter
            ? `Write chapter ${chapter + 1}`
            : planned
              ? 'Write chapter 1 from the outline'
              : 'Write the next chapter',
          trashed
            ? 'Review the outline for what is missing'
            : chapter
              ? `Review the pacing and dialogue of chapter ${chapter}`
              : 'Review what was just written',
          'Add character sheets for the main cast',
        ];
  return { content: JSON.stringify(items), toolCalls: [] };
}
