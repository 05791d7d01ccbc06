/**
 * Builds the Chat Completions messages for one agent step from MongoDB: system prompt,
 * project context, session history with tool breadcrumbs, the author's message, what
 * teammates said earlier in this turn, the handoff packet, this run's own tool loop, and
 * any steering. Earlier steps of a run are an exact prefix of later ones, so provider
 * prefix caches keep hitting.
 */
import type OpenAI from 'openai';
import { buildSystemPrompt } from '../agents/prompts';
import { STEERING_MARKER } from '../agents/markers';
import type { Models, ProjectDoc, TurnDoc } from '../db/models';
import type { ProjectType } from '../shared/domain';
import { detectLanguage } from '../shared/text';
import type { LlmStepInput } from '../shared/turn-types';
import { assembleContext, countTokens } from './context';
import { skillCatalogFor } from '../skills/catalog';

type ChatMessage = OpenAI.Chat.Completions.ChatCompletionMessageParam;

export interface MessageBudget {
  contextTokens: number;
  historyTokens: number;
  ledgerCeiling: number;
}

function breadcrumbLine(b: { op?: string | null; fileId?: string | null; title?: string | null }[]): string {
  if (!b.length) return '';
  return `\n\n[earlier tool operations] ${b.map((x) => `${x.op} "${x.title}" (id=${x.fileId})`).join('; ')}`;
}

/** Session history before this turn, newest first until the budget is spent, then restored to order. */
async function loadHistory(models: Models, turn: TurnDoc, budgetTokens: number): Promise<ChatMessage[]> {
  const msgs = await models.Message.find({ sessionId: turn.sessionId, turnId: { $ne: String(turn._id) } })
    .sort({ seq: -1 })
    .limit(200)
    .lean();
  const out: ChatMessage[] = [];
  let used = 0;
  for (const m of msgs) {
    const content = m.role === 'assistant' ? `${m.content}${breadcrumbLine(m.breadcrumb)}` : m.content;
    const tokens = countTokens(content) + 8;
    if (used + tokens > budgetTokens) break;
    used += tokens;
    out.push(m.role === 'assistant' ? { role: 'assistant', content } : { role: 'user', content });
  }
  return out.reverse();
}

/** Files read or written in the last two assistant turns, by id (the cross-turn working set). */
async function workingSetNote(models: Models, turn: TurnDoc): Promise<string> {
  const recent = await models.Message.find({ sessionId: turn.sessionId, role: 'assistant', turnId: { $ne: String(turn._id) } })
    .sort({ seq: -1 })
    .limit(2)
    .lean();
  const ids = [...new Set(recent.flatMap((m) => m.breadcrumb.map((b) => b.fileId)).filter(Boolean))] as string[];
  if (!ids.length) return '';
  const files = await models.File.find({ _id: { $in: ids }, deletedAt: null }).select({ title: 1, words: 1, type: 1 }).lean();
  if (!files.length) return '';
  return `<previous_turn_working_set>\n${files.map((f) => `- ${f.title} (id=${String(f._id)}, ${f.type}, ${f.words} words)`).join('\n')}\n</previous_turn_working_set>\n\n`;
}

export async function buildAgentMessages(
  models: Models,
  input: LlmStepInput,
  turn: TurnDoc,
  project: ProjectDoc,
  budget: MessageBudget,
): Promise<ChatMessage[]> {
  const system = buildSystemPrompt(input.agent, {
    projectType: project.type as ProjectType,
    language: detectLanguage(turn.message),
    scope: input.scope,
  });
  const projectBrief = [
    `Project: ${project.title} (${project.type})`,
    project.summary && `Summary: ${project.summary}`,
    project.style && `Style: ${project.style}`,
    project.notes && `Notes: ${project.notes}`,
    project.tasks.length ? `Task board:\n${project.tasks.map((t) => `- [${t.status}] ${t.title}${t.progress ? ` (${t.progress})` : ''}`).join('\n')}` : '',
  ]
    .filter(Boolean)
    .join('\n');
  // Independent reads run together: this is on the path of every model call.
  const [context, workingSet, steps] = await Promise.all([
    assembleContext(models, {
      turnId: input.turnId,
      projectId: turn.projectId,
      message: turn.message,
      focusFileId: turn.focusFileId ?? null,
      attachedFileIds: turn.attachedFileIds,
      quotes: turn.quotes,
      budgetTokens: budget.contextTokens,
    }),
    workingSetNote(models, turn),
    models.AgentStep.find({ turnId: input.turnId, step: { $lt: input.step } }).sort({ step: 1 }).lean(),
  ]);
  // The ledger ceiling only shrinks history: system prompt and context come first.
  const fixed = countTokens(system) + countTokens(projectBrief) + context.tokens + countTokens(turn.message);
  const historyBudget = Math.max(0, Math.min(budget.historyTokens, budget.ledgerCeiling - fixed));
  const history = await loadHistory(models, turn, historyBudget);

  const skillCatalog = await skillCatalogFor(models, turn); // L1: enabled skills' names and purposes (src/skills)
  const messages: ChatMessage[] = [
    { role: 'system', content: `${system}${skillCatalog}` },
    { role: 'system', content: `${projectBrief}\n\n${context.text}` },
    ...history,
    { role: 'user', content: `${workingSet}${turn.message}` },
  ];

  // Teammates earlier in this turn: their chat text only (their tool loops are theirs).
  let lastRun = -1;
  for (const s of steps.filter((x) => x.run < input.run)) {
    if (!s.text.trim()) continue;
    if (s.run !== lastRun) messages.push({ role: 'assistant', content: `[${s.agent}] ${s.text}` });
    else (messages[messages.length - 1] as { content: string }).content += s.text;
    lastRun = s.run;
  }
  if (input.packet) messages.push({ role: 'user', content: input.packet });
  for (const s of steps.filter((x) => x.run === input.run)) {
    messages.push({
      role: 'assistant',
      content: s.rawContent || null,
      ...(s.toolCalls.length
        ? { tool_calls: s.toolCalls.map((c) => ({ id: c.id!, type: 'function' as const, function: { name: c.name!, arguments: c.arguments || '{}' } })) }
        : {}),
    });
    for (const c of s.toolCalls) {
      const r = s.toolResults.find((x) => x.toolCallId === c.id);
      messages.push({ role: 'tool', tool_call_id: c.id!, content: r?.content ?? '{"ok":false,"error_type":"not_executed","message":"The turn stopped before this call ran."}' });
    }
  }
  for (const s of input.steering) messages.push({ role: 'user', content: `${STEERING_MARKER} ${s}` });
  return messages;
}
