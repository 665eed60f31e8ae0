/** A skill as a session's bash sees it: its name, one line of description, and its body. */
export type SkillFile = { readonly name: string; readonly description: string; readonly body: string };

/**
 * Where a session's bash finds a skill's body, relative to its scratch directory. One place for
 * the path every sandbox mounts and every prompt names: the planner's prompt quotes it, so it must
 * stay byte for byte the same for recorded planner calls to replay.
 *
 * @example
 * skillFilePath("triage") // ".agents/skills/triage/SKILL.md"
 */
export function skillFilePath(name: string): string {
  return `.agents/skills/${name}/SKILL.md`;
}

/** A skill's file as mounted: frontmatter (name, description), then the body. */
export function skillFileText(skill: SkillFile): string {
  return `---\nname: ${skill.name}\ndescription: ${skill.description}\n---\n${skill.body}`;
}
