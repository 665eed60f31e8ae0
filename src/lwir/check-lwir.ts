import type { DefinitionCapabilities } from "../identity/definition-snapshot.ts";
import type { Finding } from "../sdk/finding.ts";
import { bindLwir } from "./bind-lwir.ts";
import { validateLwir } from "./validate-lwir.ts";

/**
 * Every finding about a draft in one pass: structure, each step's `with`, templates, the graph,
 * and the binding to the definition. Binding runs even on a structurally invalid draft (it reads
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
  return [...structural.findings, ...bindLwir(draft, capabilities)];
}
