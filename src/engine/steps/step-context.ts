import type { HarnessContext } from "../../harness/harness-context.ts";
import type { DefinitionCapabilities } from "../../identity/definition-snapshot.ts";
import type { LockedVersion } from "../../lwir/register-workflow-version.ts";
import type { RegisteredWorkflow, RunEnvironment } from "../run-environment.ts";

/** What an executor of one step attempt gets. */
export type StepAttempt = {
  readonly env: RunEnvironment;
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
  /** Why the previous attempt failed, when this one retries it. */
  readonly previousError?: { readonly code: string; readonly message: string };
};
