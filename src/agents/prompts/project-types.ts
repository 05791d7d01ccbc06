import type { ProjectType } from '../../core/domain';

/** Project-type guidance, one per project type. */
export const PROJECT_TYPE_PROMPTS: Record<ProjectType, string> = {
  novel: `Project type: novel. Long arcs across many chapters; each chapter advances plot and character, ends with a pull to the next. Chapters are draft files titled "Chapter N" (Chinese: "第N章").`,
  short_story: `Project type: short story. One tight arc, few characters, every scene earns its place; usually one to a few draft files.`,
  screenplay: `Project type: screenplay. Scenes in screenplay format (scene headings, action, dialogue); each episode is a script file titled "Episode N" (Chinese: "第N集").`,
};
