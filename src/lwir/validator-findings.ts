/**
 * @module What the validator a run keeps adds on top of `@1`'s findings. Under `@1` nothing, so
 * a run started before the type pass re-derives exactly the findings (and so the lock) it was
 * registered with; under `@2` the type pass, whose `template.unknown_field` replaces `@1`'s
 * weaker `template.unknown_input_field` warning at the same path.
 */
import type { DefinitionCapabilities } from "../identity/definition-snapshot.ts";
import type { Finding } from "../sdk/finding.ts";
import { checkTemplateTypes } from "./validate-template-types.ts";

/** `@1`'s findings (structure and binding) with what the run's validator adds. */
export function withValidatorFindings(findings: readonly Finding[], lwir: unknown, capabilities: DefinitionCapabilities): Finding[] {
  if (capabilities.lwirValidator === "little-workflow-lwir-validator@1") return [...findings];
  const typed = checkTemplateTypes(lwir, capabilities);
  const typedPaths = new Set(typed.filter((f) => f.code === "template.unknown_field").map((f) => f.path));
  const kept = findings.filter((f) => !(f.code === "template.unknown_input_field" && typedPaths.has(f.path)));
  return [...kept, ...typed];
}
