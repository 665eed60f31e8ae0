import { describeTool, type ToolDescriptor } from "../../identity/tool-descriptors.ts";
import { renderValue } from "../../lwir/evaluate-template.ts";
import type { ToolCallStep } from "../../lwir/types.ts";
import { validateJson } from "../../schema/validate-json.ts";
import { RunFailure } from "../run-failure.ts";
import { StepAttemptError } from "../step-failure.ts";
import { awaitApproval } from "./approval-gate.ts";
import type { StepAttempt } from "./step-context.ts";

/**
 * A `tool.call` attempt. The live tool's descriptor must still hash to the one in the lock
 * (`capability_drift` otherwise); its input is the step's rendered `with.input`, validated
 * against the tool's input schema; its idempotency key — `<runId>:<stepPath>:a<attempt>`, passed
 * as `toolCallId` — is the same when an attempt in flight at a crash runs again, so a tool can
 * make its side effect exactly once.
 */
export async function runToolCall(step: ToolCallStep, a: StepAttempt): Promise<unknown> {
  const id = step.with.tool;
  const locked = a.locked.lock.tools.find((t) => t.id === id);
  const live = a.workflow.definition.tools[id] ?? a.workflow.tools[id];
  if (!locked || !live) throw new RunFailure("capability_drift", `Step ${a.stepPath} calls tool "${id}", which is no longer provided`);
  // Under the run's schema normalizer, so the lock of a run started under `@1` still matches.
  const descriptor = await describeLive(a, id, live);
  if (descriptor.descriptorHash !== locked.descriptorHash) {
    throw new RunFailure(
      "capability_drift",
      `Tool "${id}" changed since version ${a.locked.version.id} was locked (descriptor ${descriptor.descriptorHash}, locked ${locked.descriptorHash})`,
      {
        tool: id,
        locked: locked.descriptorHash,
        live: descriptor.descriptorHash,
      },
    );
  }
  const input = renderValue(step.with.input ?? {}, { input: a.input, steps: a.outputs, item: a.item });
  const check = validateJson(descriptor.inputSchema, input, "tool.input_invalid");
  if (!check.valid)
    throw new StepAttemptError(
      "tool_input_invalid",
      `Input for tool "${id}" is invalid: ${check.findings.map((f) => `${f.path}: ${f.message}`).join("; ")}`,
      false,
    );
  if (typeof live.execute !== "function") throw new StepAttemptError("tool_not_executable", `Tool "${id}" has no execute function`, false);
  await awaitApproval(step, a, live, input);
  const idempotencyKey = `${a.ctx.runId}:${a.stepPath}:a${a.attempt}`;
  // Only the secrets this tool's (hash-checked) descriptor declares AND this version's permissions
  // name: a workflow binding STRIPE_KEY for one tool must not hand it to every other tool too.
  // Never part of the recorded input; nor is `env`, the Worker's bindings (ToolContext in sdk/tool.ts).
  const permitted = new Set(a.locked.lock.capabilityManifest.secrets);
  const secrets = Object.fromEntries(
    (descriptor.secrets ?? []).flatMap((name) =>
      permitted.has(name) && a.ctx.secrets?.[name] !== undefined ? [[name, a.ctx.secrets[name]]] : [],
    ),
  );
  let output: unknown;
  try {
    output = await live.execute(
      input as never,
      {
        toolCallId: idempotencyKey,
        messages: [],
        abortSignal: a.signal,
        context: { idempotencyKey, secrets, env: a.env.bindings },
      } as never,
    );
  } catch (error) {
    if (a.signal.aborted) throw error;
    const fatal = (error as { retriable?: unknown }).retriable === false;
    throw new StepAttemptError("tool_failed", `Tool "${id}" failed: ${error instanceof Error ? error.message : String(error)}`, !fatal);
  }
  if (descriptor.outputSchema !== null) {
    const out = validateJson(descriptor.outputSchema, output, "tool.output_invalid");
    if (!out.valid)
      throw new StepAttemptError(
        "tool_output_invalid",
        `Tool "${id}" returned an output its schema refuses: ${out.findings.map((f) => `${f.path}: ${f.message}`).join("; ")}`,
        true,
      );
  }
  return output;
}

/** The live tool's descriptor, described once per slice for the same tool object (`liveTools`). */
function describeLive(a: StepAttempt, id: string, live: Parameters<typeof describeTool>[1]): Promise<ToolDescriptor> {
  const known = a.liveTools?.get(id);
  if (known && known.live === live) return known.descriptor;
  const descriptor = describeTool(id, live, a.capabilities.schemaNormalizer);
  a.liveTools?.set(id, { live, descriptor });
  // A tool that cannot be described fails each step that calls it, as it would uncached.
  descriptor.catch(() => a.liveTools?.delete(id));
  return descriptor;
}
