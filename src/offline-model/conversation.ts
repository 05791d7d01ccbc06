/**
 * Reads what the offline model needs out of a request: which agent is asking, what the
 * author actually said (as opposed to packets the engine wraps around it), and where the
 * agent run stands (fresh, after a tool result, or a continuation round).
 */
import { findUnitRefs } from '../core/words/numerals';
import { FILE_STREAM_CONTINUATION_MARKER, parseAgentHeader } from '../core/model/markers';
import { detectLanguage } from '../core/text';
import { messageText } from './tokens';
import type { AgentName, ChatCompletionRequest, ChatMessage } from './types';

/**
 * The role from the last agent header in the system (or developer) messages: an agent's role
 * follows the project material (agent-messages.ts), so a project file quoting a header cannot
 * pose as it.
 */
export function detectAgent(body: ChatCompletionRequest): AgentName | null {
  let agent: AgentName | null = null;
  for (const m of body.messages)
    if (m.role === 'system' || m.role === 'developer') agent = parseAgentHeader(messageText(m)) ?? agent;
  return agent;
}

/** The last message with role `user`, or null. */
export function lastUserMessage(messages: ChatMessage[]): ChatMessage | null {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i].role === 'user') return messages[i];
  return null;
}

const SECTION_HEADER = /^\[([^\]\n]{1,80})\]\s*$/;

/** Splits a packet into `[header]` sections; text before the first header has header null. */
export function sections(text: string): { header: string | null; body: string }[] {
  const out: { header: string | null; lines: string[] }[] = [{ header: null, lines: [] }];
  for (const line of text.split('\n')) {
    const m = SECTION_HEADER.exec(line.trim());
    if (m) out.push({ header: m[1].trim().toLowerCase(), lines: [] });
    else out[out.length - 1].lines.push(line);
  }
  return out
    .map((s) => ({ header: s.header, body: s.lines.join('\n').trim() }))
    .filter((s) => s.header !== null || s.body !== '');
}

/** Sections written by the author: `[user message]`, `[author steering]`, `[scope]`, … but not a question *for* the author. */
function isAuthorSection(header: string): boolean {
  return /\b(user|author|scope)\b/.test(header) && !/question|assistant|previous/.test(header);
}

/** The author's words in one message: its author sections, or its text when it is not a packet. */
export function authorPart(text: string): string {
  const parts = sections(text);
  if (parts.every((p) => p.header === null)) return text.trim();
  return parts
    .filter((p) => (p.header === null ? false : isAuthorSection(p.header)))
    .map((p) => p.body)
    .filter(Boolean)
    .join('\n');
}

/**
 * What the author said most recently: the author part of the latest user message that has
 * one, falling back to the latest user message's whole text when every message is a packet.
 */
export function authorText(messages: ChatMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i].role !== 'user') continue;
    const part = authorPart(messageText(messages[i]));
    if (part) return part;
  }
  const last = lastUserMessage(messages);
  return last
    ? messageText(last)
        .replace(/^\[[^\]\n]+\]\s*$/gm, '')
        .trim()
    : '';
}

export function replyLanguage(messages: ChatMessage[]): 'zh' | 'en' {
  return detectLanguage(authorText(messages));
}

/** The chapter the text asks about ("chapter 3", "ch. 3", "第3章", "第三章"), or null. */
export function chapterNumber(text: string): number | null {
  // The shared numeral parser (core/words/numerals.ts), as the rules that read the author use it.
  return findUnitRefs(text).find((r) => r.kind === 'chapter')?.from ?? null;
}

/** The chapter in the author's words first, then anywhere in the latest user message; default 1. */
export function requestedChapter(messages: ChatMessage[]): number {
  const last = lastUserMessage(messages);
  return chapterNumber(authorText(messages)) ?? (last ? chapterNumber(messageText(last)) : null) ?? 1;
}

/** True when the latest user (or packet) message opens a file-stream continuation round. */
export function isContinuationRound(messages: ChatMessage[]): boolean {
  const last = lastUserMessage(messages);
  return last !== null && messageText(last).includes(FILE_STREAM_CONTINUATION_MARKER);
}

export interface ToolOutcome {
  name: string | null;
  ok: boolean;
  /** `error_type` and `message` of a failed tool, for the persona's apology. */
  errorType?: string;
  message?: string;
}

function parseToolResult(text: string): Omit<ToolOutcome, 'name'> {
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object') {
      const r = parsed as { ok?: unknown; error_type?: unknown; message?: unknown };
      return {
        ok: r.ok === true,
        errorType: typeof r.error_type === 'string' ? r.error_type : undefined,
        message: typeof r.message === 'string' ? r.message : undefined,
      };
    }
  } catch {
    // Not JSON: judge by the words.
  }
  return { ok: !/\berror\b|"ok"\s*:\s*false/i.test(text), message: text.slice(0, 200) };
}

/**
 * The tool results the request ends with (the trailing run of `tool` messages), each
 * with the tool name looked up from the assistant call it answers. Empty when the last
 * message is not a tool result — a fresh agent run.
 */
export function trailingToolOutcomes(messages: ChatMessage[]): ToolOutcome[] {
  const out: ToolOutcome[] = [];
  let i = messages.length - 1;
  for (; i >= 0 && messages[i].role === 'tool'; i--) {
    const m = messages[i];
    let name: string | null = m.name ?? null;
    for (let j = i - 1; j >= 0 && name === null; j--) {
      const call = messages[j].tool_calls?.find((c) => c.id === m.tool_call_id);
      if (call) name = call.function.name;
    }
    out.unshift({ name, ...parseToolResult(messageText(m)) });
  }
  return out;
}

/** Names of the tools the request offers; null when it sends no tool list at all. */
export function offeredTools(body: ChatCompletionRequest): Set<string> | null {
  return body.tools ? new Set(body.tools.map((t) => t.function.name)) : null;
}
