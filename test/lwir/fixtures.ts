/**
 * Shared LWIR test fixtures: the seed's worked example and fixer step (copied verbatim from the
 * spec into test/fixtures/lwir/), builders for small variants, and path-based mutation helpers so
 * each failing fixture is "the valid seed plus one change".
 */
import { openai } from "@ai-sdk/openai";
import { z } from "zod";
import { summarizeTicket } from "../../src/examples/support-summarize-ticket.ts";
import { type DefinitionCapabilities, snapshotDefinition } from "../../src/identity/definition-snapshot.ts";
import { defineWorkflow } from "../../src/sdk/define-workflow.ts";
import { model } from "../../src/sdk/model.ts";
import { tool } from "../../src/sdk/tool.ts";
import kitchenSinkJson from "../fixtures/lwir/kitchen-sink.json";
import computeScoreJson from "../fixtures/lwir/seed-compute-score-step.json";
import seedJson from "../fixtures/lwir/seed-summarize-ticket.json";

export type JsonObject = { [key: string]: unknown };
export type PathKey = string | number;

/** The seed's compute-score step file digest (sha256 of its content), as printed in the spec. */
export const SCORE_TS_SHA256 = "sha256:1ed396c7cbeba5c323250026707a76c1e1ad3f62572334094e5167c357c6de7c";

/** A deep copy, so a test can mutate freely. */
export function clone<T>(value: T): T {
  return structuredClone(value);
}

/** The seed's worked-example LWIR, exactly as the spec prints it. */
export function seedLwir(): JsonObject {
  return clone(seedJson) as JsonObject;
}

/** The seed's `onFailure.fixer` example step (compute-score), exactly as the spec prints it (comment removed). */
export function computeScoreStep(): JsonObject {
  return clone(computeScoreJson) as JsonObject;
}

/** A document with every optional LWIR field set (four steps, all three kinds, all output modes but array/text). */
export function kitchenSinkLwir(): JsonObject {
  return clone(kitchenSinkJson) as JsonObject;
}

/**
 * The seed plus its compute-score code.run step wired in before `summarize`:
 * steps = [compute-score, summarize (needs compute-score)], so `summarize` stays the one terminal.
 */
export function seedWithComputeScore(): JsonObject {
  const doc = seedLwir();
  const summarize = get(doc, ["steps", 0]) as JsonObject;
  doc.steps = [computeScoreStep(), { ...summarize, needs: ["compute-score"] }];
  return doc;
}

/**
 * The seed as the example definition's snapshot expects it: zod emits `additionalProperties: false`
 * for output objects, which the spec's abbreviated worked example leaves out. This is the only
 * difference from {@link seedLwir}.
 */
export function boundSeedLwir(): JsonObject {
  const doc = seedLwir();
  set(doc, ["output", "schema", "additionalProperties"], false);
  return doc;
}

/** A minimal valid ai.generate step. */
export function aiStep(id: string, needs: string[] = [], prompt = "Hello {{ input.ticketId }}"): JsonObject {
  return { id, uses: "ai.generate", needs, with: { model: "gpt-4o-mini", prompt }, output: { mode: "text" } };
}

/** The seed with its steps replaced. */
export function seedWithSteps(steps: unknown[]): JsonObject {
  const doc = seedLwir();
  doc.steps = steps;
  return doc;
}

/**
 * A chain s0 ← s1 ← … ← s(n-1) where each step reads its predecessor's output; `backEdge` makes
 * s0 need the last step, closing one long cycle.
 */
export function chainLwir(n: number, { backEdge = false } = {}): JsonObject {
  const steps: JsonObject[] = [];
  for (let i = 0; i < n; i++) {
    const needs = i === 0 ? (backEdge ? [`s${n - 1}`] : []) : [`s${i - 1}`];
    steps.push(aiStep(`s${i}`, needs, i === 0 ? "Start from {{ input.ticketId }}" : `Continue from {{ steps.s${i - 1}.output }}`));
  }
  return seedWithSteps(steps);
}

/** Reads the value at a key path (throws when the path does not exist: a broken fixture, not a test result). */
export function get(doc: unknown, path: readonly PathKey[]): unknown {
  let node: unknown = doc;
  for (const key of path) {
    if (typeof node !== "object" || node === null) throw new Error(`fixture path ${JSON.stringify(path)} does not exist`);
    node = (node as Record<PathKey, unknown>)[key];
  }
  return node;
}

function parentOf(doc: unknown, path: readonly PathKey[]): Record<PathKey, unknown> {
  if (path.length === 0) throw new Error("cannot mutate the root through a path");
  const parent = get(doc, path.slice(0, -1));
  if (typeof parent !== "object" || parent === null) throw new Error(`fixture path ${JSON.stringify(path)} has no container`);
  return parent as Record<PathKey, unknown>;
}

/** Sets the value at a key path (the parent must exist). Returns the document for chaining. */
export function set<T>(doc: T, path: readonly PathKey[], value: unknown): T {
  parentOf(doc, path)[path[path.length - 1] as PathKey] = value;
  return doc;
}

/** Deletes the key at a key path. Returns the document for chaining. */
export function remove<T>(doc: T, path: readonly PathKey[]): T {
  delete parentOf(doc, path)[path[path.length - 1] as PathKey];
  return doc;
}

/** A copy of `value` with every object's keys in reverse order (same JSON value, different spelling). */
export function reverseKeys<T>(value: T): T {
  if (Array.isArray(value)) return value.map(reverseKeys) as T;
  if (typeof value === "object" && value !== null) {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).reverse()) out[key] = reverseKeys((value as Record<string, unknown>)[key]);
    return out as T;
  }
  return value;
}

/** Capabilities of the seed's example workflow (src/examples/support-summarize-ticket.ts). */
export function summarizeCapabilities(): Promise<DefinitionCapabilities> {
  return snapshotDefinition(summarizeTicket, {});
}

/** The example workflow plus one inline tool, `crm.lookup`, for tool.call binding tests. */
export const summarizeWithLookup = defineWorkflow({
  id: "support.summarize-ticket",
  description: "Summarize a support ticket and classify its severity.",
  input: z.object({ ticketId: z.string(), transcript: z.string() }),
  output: z.object({ summary: z.string(), severity: z.enum(["low", "medium", "high"]) }),
  models: [
    model(openai("gpt-5"), { description: "Strong reasoning model for complex analysis." }),
    model(openai("gpt-4o-mini"), { description: "Fast model for short structured outputs." }),
  ],
  planner: { model: openai("gpt-5"), system: "You design support-ticket workflows." },
  tools: {
    "crm.lookup": tool({ description: "Look a customer up in the CRM by ticket id.", inputSchema: z.object({ ticket: z.string() }) }),
  },
});

export function lookupCapabilities(): Promise<DefinitionCapabilities> {
  return snapshotDefinition(summarizeWithLookup, {});
}

/** A callee for workflow.run binding tests: `crm.refund`, input `{ orderId, amountCents }`. */
export const crmRefund = defineWorkflow({
  id: "crm.refund",
  description: "Refund an order.",
  input: z.object({ orderId: z.string(), amountCents: z.number().int() }),
  output: z.object({ refundId: z.string() }),
  models: [model(openai("gpt-4o-mini"), { description: "Fast model for short structured outputs." })],
  planner: { model: openai("gpt-5"), system: "Plan a refund." },
});

/** The example workflow declaring `crm.refund` as a callee (`workflows`), with its callee resolved. */
export async function calleeCapabilities(): Promise<DefinitionCapabilities> {
  const callee = await snapshotDefinition(crmRefund, {});
  return snapshotDefinition({ ...summarizeTicket, workflows: ["crm.refund"] }, {}, undefined, undefined, [callee]);
}

/** The bound seed with a workflow.run step `call` (of `workflow`, given `input`) before `summarize`. */
export function withCall(workflow: string, input: Record<string, unknown>, output: unknown = { mode: "json" }): JsonObject {
  const doc = boundSeedLwir();
  const summarize = get(doc, ["steps", 0]) as JsonObject;
  doc.steps = [
    { id: "call", uses: "workflow.run", needs: [], with: { workflow, input }, output },
    { ...summarize, needs: ["call"] },
  ];
  return doc;
}
