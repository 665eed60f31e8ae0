/**
 * @module The binding check of `wait.signal`: every signal it waits for is one the workflow
 * declares (`defineWorkflow({ signals })`, the snapshot's `signals`), so no run waits for a
 * message nobody can send.
 */
import type { WorkflowDefinitionSnapshot } from "../identity/definition-snapshot.ts";
import { childPath } from "../sdk/json-path.ts";
import type { FindingSink } from "./findings-sink.ts";
import type { LwirStep } from "./types.ts";

/** Each name in a wait.signal's `with.signals` must be declared; the finding lists the declared ones. */
export function checkSignalBinding(sink: FindingSink, step: LwirStep, path: string, snapshot: WorkflowDefinitionSnapshot): void {
  if (step.uses !== "wait.signal" || !Array.isArray(step.with?.signals)) return;
  const declared = (snapshot.signals ?? []).map((s) => s.name);
  step.with.signals.forEach((name, i) => {
    if (typeof name !== "string" || declared.includes(name)) return;
    sink.error(
      "binding.signal_not_declared",
      childPath(`${path}.with.signals`, i),
      declared.length === 0
        ? `signal "${name}" is not declared: the workflow declares no signals, so a plan cannot use wait.signal (use wait.sleep to wait out a time)`
        : `signal "${name}" is not declared by the workflow; wait for one of ${declared.map((d) => `"${d}"`).join(", ")} (workflowSnapshot.signals)`,
    );
  });
}
