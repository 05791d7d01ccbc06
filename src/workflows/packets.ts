/**
 * Handoff packets: the instructions the next agent gets. A handoff's packet always carries
 * the fixed rules: do not redo what is done, do not change the files just delivered unless
 * the todo says so, do not add output the author did not ask for. Pure module.
 */
import {
  EMPTY_FILE_REPAIR_MARKER,
  FILE_STREAM_CONTINUATION_MARKER,
  HANDOFF_PACKET_MARKER,
  REVIEW_CONTENT_MARKER,
  REVIEW_EVIDENCE_MARKER,
  WRITER_QUESTION_MARKER,
} from '../core/model/markers';
import type { RunKind } from '../core/turn/turn-types';
import type { WorkAgent } from '../core/plans';

export interface DeliveredFile {
  fileId: string;
  title: string;
  type: string;
}

export const FIXED_HANDOFF_RULES = [
  'Do not redo what is already done.',
  'Do not modify the files just delivered unless the todo says so.',
  'Do not add output the author did not ask for.',
];

export interface PacketInput {
  from: WorkAgent;
  to: WorkAgent;
  kind: RunKind;
  scope: string;
  note: string;
  delivered: DeliveredFile[];
  /** Review gate evidence. */
  review?: { bodyWords: number; lengthRequirements: string[]; writerQuestion: string | null };
}

const fileLine = (f: DeliveredFile): string => `- ${f.title} (id=${f.fileId}, ${f.type})`;

export function buildPacket(p: PacketInput): string {
  if (p.kind === 'continuation') {
    return [
      FILE_STREAM_CONTINUATION_MARKER,
      'Your last reply ended right after a finished <file> block and the file is saved.',
      p.delivered.length ? `Saved in this turn:\n${p.delivered.map(fileLine).join('\n')}` : '',
      `Author's scope: ${p.scope || '(as in the message)'}`,
      "If this turn's request asked for more that is not written yet, write the next part now; if everything it asked for is written, give the author a short summary of what was saved. Unfinished items on the task board are context, not instructions: write nothing beyond this turn's scope. Do not rewrite saved files.",
    ]
      .filter(Boolean)
      .join('\n');
  }
  if (p.kind === 'empty_file_repair') {
    // The same agent, right after its own run: no handoff rules, just the one thing to fix.
    return [EMPTY_FILE_REPAIR_MARKER, p.note, `Author's scope: ${p.scope || '(as in the message)'}`].join('\n');
  }
  const lines = [
    HANDOFF_PACKET_MARKER,
    `From ${p.from} to ${p.to} (${p.kind.replace(/_/g, ' ')}).`,
    ...FIXED_HANDOFF_RULES.map((r) => `- ${r}`),
    `Author's scope: ${p.scope || '(as in the message)'}`,
    `Todo: ${p.note}`,
  ];
  if (p.delivered.length) lines.push(`Files delivered in this turn:\n${p.delivered.map(fileLine).join('\n')}`);
  if (p.review) {
    lines.push(
      // Expanded by the reviewer's LLM step from MongoDB: file bodies stay out of workflow history.
      REVIEW_CONTENT_MARKER,
      REVIEW_EVIDENCE_MARKER,
      `Body words written in this turn: ${p.review.bodyWords}`,
      `Author's length requirements: ${p.review.lengthRequirements.length ? p.review.lengthRequirements.join(' | ') : '(none stated)'}`,
      'Judge length by these figures. You write the one summary the author sees for this turn.',
    );
    if (p.review.writerQuestion) lines.push(`${WRITER_QUESTION_MARKER} ${p.review.writerQuestion}`);
  }
  return lines.join('\n');
}
