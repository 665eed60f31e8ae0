import type { DefinitionCapabilities } from "../identity/definition-snapshot.ts";
import type { Finding } from "../sdk/finding.ts";
import { bindLwir } from "./bind-lwir.ts";
import { validateLwir } from "./validate-lwir.ts";
import { withValidatorFindings } from "./validator-findings.ts";

/**
 * Every finding about a draft in one pass: structure, each step's `with`, templates, the graph,
 * the binding to the definition and, under validator `@2`, the template types. Binding runs even on a structurally invalid draft (it reads
 * defensively), so one submission shows everything wrong with it. Used by `submit_lwir`, the
 * planner's `lwir-check` and `POST /v1/lwir/validate?workflow=`.
 *
 * @example
 * const findings = checkLwir(draft, capabilities); // [] when the draft compiles
 */
export function checkLwir(draft: unknown, capabilities: DefinitionCapabilities): Finding[] {
  const hints = {
    models: capabilities.snapshot.modelSlots.map((s) => s.id),
    tools: capabilities.snapshot.tools.map((t) => t.id),
  };
  const structural = validateLwir(draft, hints);
  if (structural.findings.some((f) => f.code.startsWith("document."))) return [...structural.findings];
  return withValidatorFindings([...structural.findings, ...bindLwir(draft, capabilities)], draft, capabilities);
}
