/**
 * An author's message as the rules read it in a turn. A turn's workflow replays the word cuts its
 * preparation recorded; so do these tests, from tests/fixtures/intent/word-ends.json (jieba's cuts
 * of every Chinese message they read: `npm run fixtures:word-ends`), and load jieba itself only
 * for a message the file does not hold. A mutation run reads thousands of messages per mutant:
 * jieba's dictionary would cost each run over a second.
 */
import fs from 'node:fs';
import path from 'node:path';
import { readAuthorMessage } from '../../src/activities/reading/segmenter';
import { type AuthorAction, authorisedFiles } from '../../src/core/words/author-scope';
import { readMessage, recordedSegmenter, type MessageReading } from '../../src/core/words/reading';

const recorded = JSON.parse(
  fs.readFileSync(path.join(__dirname, '../fixtures/intent/word-ends.json'), 'utf8'),
) as Record<string, number[]>;

export function read(message: string): MessageReading {
  const ends = recorded[message];
  return ends ? readMessage(message, recordedSegmenter(ends)) : readAuthorMessage(message);
}

/** The titles of `project` a message authorises this action on, as the rules read it in a turn. */
export const authorised = (message: string, project: string[], action: AuthorAction = 'delete'): string[] =>
  authorisedFiles(
    { reading: read(message), titles: project },
    project.map((t, i) => ({ id: String(i), title: t })),
    action,
  ).map((f) => f.title);
