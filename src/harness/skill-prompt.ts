import { skillFilePath } from "../ports/skill-files.ts";
import type { Skill } from "../sdk/skill.ts";

/** Where a session's bash finds a skill's body, relative to its scratch directory (ports/skill-files.ts). */
export const skillPath = skillFilePath;

/**
 * The skills' frontmatter as planner and workers see it in their system prompt: one line per
 * skill with where its body is (under the session's scratch directory); `(none)` without skills.
 * The planner's prompt has used exactly this text since skills existed: recorded planner calls
 * replay only while it stays byte for byte the same.
 */
export function skillFrontmatter(skills: readonly Skill[]): string {
  return skills.length === 0 ? "(none)" : skills.map((s) => `- ${s.name}: ${s.description} (read: cat ${skillPath(s.name)})`).join("\n");
}
