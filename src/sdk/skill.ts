/**
 * A skill the planner (or a worker) can read: its frontmatter (`name`, `description`) goes into
 * the system prompt, its body is readable at `.agents/skills/<name>/SKILL.md`.
 *
 * @example
 * skill({ name: "triage", description: "How we grade severity", body: "# Triage\n..." })
 */
export type Skill = { readonly name: string; readonly description: string; readonly body: string };

export function skill(definition: Skill): Skill {
  return { name: definition.name, description: definition.description, body: definition.body };
}
