import type { HarnessContext } from "../../harness/harness-context.ts";
import type { DefinitionCapabilities } from "../../identity/definition-snapshot.ts";
import type { ToolDescriptor } from "../../identity/tool-descriptors.ts";
import type { LockedVersion } from "../../lwir/register-workflow-version.ts";
import type { RegisteredWorkflow, SliceEnvironment } from "../run-environment.ts";

/** What an executor of one step attempt gets. */
export type StepAttempt = {
  readonly env: SliceEnvironment;
  readonly ctx: HarnessContext;
  readonly workflow: RegisteredWorkflow;
  readonly capabilities: DefinitionCapabilities;
  readonly locked: LockedVersion;
  readonly input: unknown;
  readonly cycle: number;
  readonly stepPath: string;
  readonly attempt: number;
  /** Outputs of finished steps, by step id. */
  readonly outputs: Readonly<Record<string, unknown>>;
  /** Aborted on cancel, on the step's timeout, or when a sibling fails the run. */
  readonly signal: AbortSignal;
  /** The element a fan-out branch runs for (`{{ item }}`). */
  readonly item?: unknown;
  /** How many times each step has been visited (loops); 1 outside loops. */
  readonly visits?: ReadonlyMap<string, number>;
  /**
   * Descriptors of the live tools this execution has described, by tool id (tool-call.ts): a tool
   * object is hashed once per slice, not once per step. Made per slice, so a tool changed between
   * slices (a deploy) is described afresh and checked against the lock again.
   */
  readonly liveTools?: Map<string, { readonly live: unknown; readonly descriptor: Promise<ToolDescriptor> }>;
  /** Why the previous attempt failed, when this one retries it. */
  readonly previousError?: { readonly code: string; readonly message: string };
};
