import { z } from "@hono/zod-openapi";
import { Usage } from "../schemas.ts";

/** The request and answer shapes of restart, fork and compare (routes/run-forks.ts). */

export const RestartBody = z
  .object({
    fromStep: z.string().min(1).max(256).optional().openapi({ description: "The first step to run afresh; default the first failed step" }),
  })
  .openapi("RestartRequest");

export const ForkBody = z
  .object({
    input: z.unknown().optional().openapi({ description: "Another input (default the original's)" }),
    models: z
      .record(z.string(), z.string())
      .optional()
      .openapi({ description: 'Model slot → "provider:model", for this run only', example: { "gpt-5": "anthropic:claude-sonnet-4-5" } }),
    steps: z
      .record(z.string(), z.object({ with: z.record(z.string(), z.unknown()) }))
      .optional()
      .openapi({
        description: "Step id → fields of its `with` to replace (a shallow merge)",
        example: { summarize: { with: { prompt: "…" } } },
      }),
    lwir: z.unknown().optional().openapi({ description: "A whole LWIR to run instead of the original's" }),
  })
  .openapi("ForkRequest");

const StepUsage = z.object({ inputTokens: z.number(), outputTokens: z.number(), totalTokens: z.number(), costUsd: z.number().nullable() });

export const ForkPlan = z
  .object({
    sourceRunId: z.string(),
    versionId: z.string().optional(),
    fromStep: z.string().optional(),
    steps: z.array(
      z.object({
        stepId: z.string(),
        uses: z.string(),
        action: z.enum(["reuse", "rerun"]),
        reason: z.enum(["restarted", "changed", "reads_rerun", "not_in_source"]).optional(),
        sourceSeq: z.number().int().optional(),
        sourceUsage: StepUsage,
      }),
    ),
    estimate: StepUsage.openapi({ description: "Estimated model usage: the original's usage of the steps that re-run" }),
    sideEffects: z
      .array(z.object({ stepId: z.string(), tool: z.string() }))
      .openapi({ description: "tool.call steps that would run again (their side effects happen again)" }),
  })
  .openapi("ForkPlan");

const StepSide = z.object({
  status: z.enum(["succeeded", "failed", "skipped", "running", "not_run"]),
  reused: z.object({ runId: z.string(), seq: z.number().int() }).optional(),
  output: z.unknown().optional(),
  durationMs: z.number().nullable(),
  usage: StepUsage,
});

const RunSide = z.object({
  runId: z.string(),
  status: z.string(),
  versionId: z.string().nullable(),
  usage: Usage,
  restartOf: z.string().optional(),
  forkOf: z.string().optional(),
});

export const RunComparison = z
  .object({
    a: RunSide,
    b: RunSide,
    steps: z.array(
      z.object({
        stepId: z.string(),
        uses: z.string(),
        a: StepSide,
        b: StepSide,
        changed: z.boolean(),
        diff: z.array(z.object({ path: z.string(), a: z.unknown().optional(), b: z.unknown().optional() })),
        diffOmitted: z.number().int(),
      }),
    ),
  })
  .openapi("RunComparison");
