import type { JsonValue } from "../json/canonical-json.ts";
import type { NormalizedOutputMode } from "../schema/normalize-output-mode.ts";
import type { JsonSchema } from "../schema/normalize-schema.ts";

/** The only LWIR version this build reads and writes. */
export const LWIR_API_VERSION = "littleworkflow.dev/v0.1";
export const LWIR_KIND = "Workflow";

/** Step kinds the runtime executes. */
export const STEP_KINDS = ["ai.generate", "tool.call", "code.run", "decision", "wait.sleep", "wait.signal", "workflow.run"] as const;
export type StepKind = (typeof STEP_KINDS)[number];

/**
 * The kinds a planner is shown (prompt field reference, `submit_lwir` schema) under each LWIR
 * validator: a run keeps the prompt bytes it was planned with, so a kind added later is shown from
 * the validator that added it on (lwir-validator-id.ts). The validator itself accepts every kind.
 */
const KINDS_SINCE: Readonly<Record<StepKind, 1 | 2 | 3>> = {
  "ai.generate": 1,
  "tool.call": 1,
  "code.run": 1,
  decision: 1,
  "wait.sleep": 3,
  "wait.signal": 3,
  "workflow.run": 3,
};

/**
 * The kinds shown to a planner under validator `version`. `workflow.run` only to a definition
 * that declares callees (`workflows`): one without them is shown what it was shown before the kind.
 */
export function promptedKinds(version: 1 | 2 | 3, options: { readonly callees?: boolean } = {}): readonly StepKind[] {
  return STEP_KINDS.filter((kind) => KINDS_SINCE[kind] <= version && (kind !== "workflow.run" || options.callees === true));
}

export type SandboxSetting = "deny" | "allow";
export type SandboxPolicy = { readonly network: SandboxSetting; readonly env: SandboxSetting; readonly fs: SandboxSetting };

export type CodeFile = { readonly content: string; readonly sha256: string };

export type FixerConfig = { readonly model: string; readonly maxAttempts: number; readonly system: string };

export type RetryPolicy = { readonly maxAttempts: number; readonly backoffMs?: number };

/**
 * Fan-out: the step runs once per element of `items` (a whole template giving an array), each
 * branch with `item` bound to its element; the step's output is the branches' outputs in item
 * order. `itemKey` names branches (default: the index); `failureMode` decides whether one failed
 * branch fails the step at once or every branch settles first.
 */
export type FanOut = {
  readonly items: string;
  readonly itemKey?: string;
  readonly maxConcurrency?: number;
  readonly failureMode?: "fail_fast" | "all_settled";
};

type StepCommon = {
  readonly id: string;
  readonly needs: readonly string[];
  readonly description?: string;
  readonly output: NormalizedOutputMode;
  readonly retry?: RetryPolicy;
  readonly timeoutMs?: number;
  readonly forEach?: FanOut;
};

/** A model call: `prompt` and `system` are templates. */
export type AiGenerateStep = StepCommon & {
  readonly uses: "ai.generate";
  readonly with: {
    readonly model: string;
    readonly prompt: string;
    readonly system?: string;
    readonly temperature?: number;
    readonly maxOutputTokens?: number;
  };
};

/** A call to a registered tool; strings inside `input` are templates. */
export type ToolCallStep = StepCommon & {
  readonly uses: "tool.call";
  readonly with: { readonly tool: string; readonly input?: { readonly [key: string]: JsonValue } };
};

/** Code run in the sandbox; each file's sha256 is verified before it runs. */
export type CodeRunStep = StepCommon & {
  readonly uses: "code.run";
  readonly with: {
    readonly entrypoint: string;
    readonly files: { readonly [name: string]: CodeFile };
    readonly sandbox: SandboxPolicy;
    readonly input?: JsonValue;
    readonly limits?: { readonly cpuMs?: number; readonly wallMs?: number };
  };
  readonly onFailure?: { readonly fixer?: FixerConfig };
};

/**
 * A decision: the first case whose `when` is truthy chooses its `step`, else `default`. The
 * steps that need this decision and are not chosen are skipped (and what only they lead to).
 */
export type DecisionStep = Omit<StepCommon, "output"> & {
  readonly uses: "decision";
  readonly output?: NormalizedOutputMode;
  readonly with: {
    readonly cases: readonly { readonly when: string; readonly step: string }[];
    readonly default: string;
    /** Required when a target is upstream (a loop): how many times that target may run in all. */
    readonly maxVisits?: number;
  };
};

/** The longest a wait may last: a sleep's duration or instant, a signal wait's timeout (365 days). */
export const MAX_WAIT_MS = 365 * 86_400_000;

/**
 * Waits out a duration (`durationMs`) or until an instant (`until`, a template giving an ISO-8601
 * time), at most {@link MAX_WAIT_MS}; outputs `{ wokeAt }`. The deadline is in the log and the run
 * object's alarm wakes the run: nothing waits in memory.
 */
export type WaitSleepStep = Omit<StepCommon, "output"> & {
  readonly uses: "wait.sleep";
  readonly output?: NormalizedOutputMode;
  readonly with: { readonly durationMs?: number; readonly until?: string };
};

/**
 * Waits for the first of the named signals (declared by the workflow's `signals`) or for
 * `timeoutMs`, whichever comes first; outputs `{ signal, payload, receivedAt, timedOut: false }`
 * or `{ signal: null, timedOut: true }`. A signal sent before the wait is buffered and consumed by it.
 */
export type WaitSignalStep = Omit<StepCommon, "output"> & {
  readonly uses: "wait.signal";
  readonly output?: NormalizedOutputMode;
  readonly with: { readonly signals: readonly string[]; readonly timeoutMs: number };
};

/**
 * Runs another workflow (one the definition declares in `workflows`) as a child run and waits
 * for its end; the output is the child's output. Strings inside `input` are templates.
 */
export type WorkflowRunStep = StepCommon & {
  readonly uses: "workflow.run";
  readonly with: { readonly workflow: string; readonly input?: { readonly [key: string]: JsonValue } };
};

export type LwirStep = AiGenerateStep | ToolCallStep | CodeRunStep | DecisionStep | WaitSleepStep | WaitSignalStep | WorkflowRunStep;

/** LWIR: the JSON DAG a planner compiles a definition and input into. */
export type Lwir = {
  readonly apiVersion: typeof LWIR_API_VERSION;
  readonly kind: typeof LWIR_KIND;
  readonly metadata: { readonly name: string; readonly version: string; readonly description?: string };
  readonly input: { readonly schema: JsonSchema };
  readonly output: { readonly schema: JsonSchema };
  readonly permissions: {
    readonly models: readonly string[];
    readonly tools: readonly string[];
    readonly secrets: readonly string[];
    readonly network: readonly string[];
  };
  readonly steps: readonly LwirStep[];
};
