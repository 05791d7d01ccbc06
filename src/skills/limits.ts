/**
 * Skill limits, read once from config. Import limits keep a hostile archive from costing
 * more than a bounded amount of memory; per-request limits keep skill text from crowding
 * the author's manuscript out of the model's context (at most 3 distinct skills per request,
 * skill content under a token budget).
 */
import type { Config } from '../config';

export interface SkillImportLimits {
  /** The zip as uploaded. */
  zipBytes: number;
  /** Files in the archive (directories not counted). */
  files: number;
  /** One file, uncompressed. */
  fileBytes: number;
  /** All files together, uncompressed (a zip bomb stops here). */
  totalBytes: number;
}

export interface SkillRequestLimits {
  /** Distinct skills one request may read, load_skill and read_skill_resource together. */
  skillsPerRequest: number;
  /** Tokens of skill text one request may receive, both tools together. */
  tokenBudget: number;
  /** Characters per read_skill_resource page. */
  pageChars: number;
}

export function skillImportLimits(
  config: Pick<Config, 'SKILL_ZIP_MAX_BYTES' | 'SKILL_MAX_FILES' | 'SKILL_MAX_FILE_BYTES' | 'SKILL_MAX_TOTAL_BYTES'>,
): SkillImportLimits {
  return {
    zipBytes: config.SKILL_ZIP_MAX_BYTES,
    files: config.SKILL_MAX_FILES,
    fileBytes: config.SKILL_MAX_FILE_BYTES,
    totalBytes: config.SKILL_MAX_TOTAL_BYTES,
  };
}

export function skillRequestLimits(
  config: Pick<Config, 'SKILLS_PER_REQUEST' | 'SKILL_TOKEN_BUDGET' | 'SKILL_PAGE_CHARS'>,
): SkillRequestLimits {
  return {
    skillsPerRequest: config.SKILLS_PER_REQUEST,
    tokenBudget: config.SKILL_TOKEN_BUDGET,
    pageChars: config.SKILL_PAGE_CHARS,
  };
}
