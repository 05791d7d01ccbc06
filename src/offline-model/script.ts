/**
 * The script of canned answers a test hands the offline model, consumed in order. A
 * request no entry fits is a loud failure (HTTP 500, recorded, logged) — never a silent
 * default, so a test learns at once that the engine asked something it did not expect.
 */
import { truncate } from '../core/text';
import { messageText } from './tokens';
import { scriptEntrySchema, type AgentName, type ChatCompletionRequest, type ScriptEntry } from './types';

export type ScriptLookup = { kind: 'entry'; entry: ScriptEntry } | { kind: 'exhausted'; message: string };

function fits(entry: ScriptEntry, agent: AgentName | null, body: ChatCompletionRequest): boolean {
  const match = entry.match;
  if (!match) return true;
  if (match.agent !== undefined && match.agent !== agent) return false;
  if (match.contains !== undefined) {
    const needle = match.contains;
    if (!body.messages.some((m) => messageText(m).includes(needle))) return false;
  }
  return true;
}

function describeLastMessage(body: ChatCompletionRequest): string {
  const last = body.messages[body.messages.length - 1];
  const text = messageText(last).replace(/\s+/g, ' ').trim();
  const calls = last.tool_calls?.map((c) => c.function.name).join(', ');
  return `${last.role}: "${truncate(text, 160)}"${calls ? ` (tool calls: ${calls})` : ''}`;
}

export class Script {
  private entries: ScriptEntry[] = [];
  private active = false;

  /** True once a test scripted anything, until {@link clear}. */
  get scripted(): boolean {
    return this.active;
  }

  /** Validates and appends; a malformed entry throws here, in the test that wrote it. */
  append(entries: ScriptEntry[]): void {
    entries.forEach((entry, i) => {
      const parsed = scriptEntrySchema.safeParse(entry);
      if (!parsed.success) {
        throw new Error(
          `offline model: script entry ${i} is invalid: ${parsed.error.issues.map((x) => `${x.path.join('.')}: ${x.message}`).join('; ')}`,
        );
      }
    });
    this.entries.push(...entries);
    this.active = true;
  }

  clear(): void {
    this.entries = [];
    this.active = false;
  }

  pending(): number {
    return this.entries.length;
  }

  /** Removes and returns the first entry that fits, or explains why none did. */
  take(agent: AgentName | null, body: ChatCompletionRequest): ScriptLookup {
    const index = this.entries.findIndex((e) => fits(e, agent, body));
    if (index >= 0) {
      const [entry] = this.entries.splice(index, 1);
      return { kind: 'entry', entry };
    }
    const pendingNote =
      this.entries.length === 0
        ? 'no entries left'
        : `${this.entries.length} pending entr${this.entries.length === 1 ? 'y' : 'ies'}, none matching (${this.entries
            .map((e) => JSON.stringify(e.match ?? {}))
            .join(', ')})`;
    return {
      kind: 'exhausted',
      message: `offline model script exhausted: no entry for agent ${agent ?? 'unknown'}; ${pendingNote}; last message ${describeLastMessage(body)}`,
    };
  }
}
