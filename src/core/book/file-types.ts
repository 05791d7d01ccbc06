/**
 * Which kinds of file hold the book's body text: chapters (`draft`) and screenplay episodes
 * (`script`). Writes into these count toward the review gate; their titles carry the chapter
 * (episode) numbers the manuscript is ordered by. Pure module with no runtime imports, so
 * Studio reads it without the schemas of core/domain (which re-exports it and imports nothing back).
 */
const BODY = ['draft', 'script'] as const;

/** A body-text file type. */
export type BodyFileType = (typeof BODY)[number];

/** Body-text files: writes into these count toward the review gate (core/domain checks they are file types). */
export const BODY_FILE_TYPES: readonly BodyFileType[] = BODY;

/** Whether a file of this type is body text (a chapter or an episode). */
export const isBodyFileType = (type: string | null | undefined): type is BodyFileType =>
  (BODY_FILE_TYPES as readonly (string | null | undefined)[]).includes(type);
