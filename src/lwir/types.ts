import type { JsonValue } from "../json/canonical-json.ts";
import type { NormalizedOutputMode } from "../schema/normalize-output-mode.ts";
import type { JsonSchema } from "../schema/normalize-schema.ts";

/** The only LWIR version this build reads and writes. */
export const LWIR_API_VERSION = "littleworkflow.dev/v0.1";
export const LWIR_KIND = "Workflow";

/** Step kinds the runtime executes. */
export const STEP_KINDS = ["ai.generate", "tool.call", "code.run", "decision", "workflow.run"] as const;
export type StepKind = (typeof STEP_KINDS)[number];

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

/**
 * Runs another workflow (one the definition declares in `workflows`) as a child run and waits
 * for its end; the output is the child's output. Strings inside `input` are templates.
 */
export type WorkflowRunStep = StepCommon & {
  readonly uses: "workflow.run";
  readonly with: { readonly workflow: string; readonly input?: { readonly [key: string]: JsonValue } };
};

export type LwirStep = AiGenerateStep | ToolCallStep | CodeRunStep | DecisionStep | WorkflowRunStep;

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
