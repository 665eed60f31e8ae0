/**
 * `node bench/start-path-cpu.ts`: the pure-CPU parts of one start, timed in Node, where clocks
 * advance (workerd's clocks stand still between I/O, so `/bench/ack-breakdown` can time only the
 * I/O). The same functions, on the same one-step no-op LWIR as `trigger-throughput`, in the order
 * `POST /v1/lwir/runs` and the run object call them. Prints figures; it writes no result file.
 */
import { capabilitiesOf } from "../src/api/workflow-capabilities.ts";
import type { RegisteredWorkflow } from "../src/engine/run-environment.ts";
import { canonicalBytes } from "../src/engine/run-quotas.ts";
import { deriveRunState } from "../src/engine/run-state.ts";
import { snapshotDefinition } from "../src/identity/definition-snapshot.ts";
import { canonicalJson } from "../src/json/canonical-json.ts";
import { digestJson } from "../src/json/digest.ts";
import { checkLwir } from "../src/lwir/check-lwir.ts";
import { validateLwir } from "../src/lwir/validate-lwir.ts";
import type { RunEvent } from "../src/ports/run-events.ts";
import { LEGACY_SCHEMA_NORMALIZER, SCHEMA_NORMALIZER } from "../src/schema/normalize-schema.ts";
import { validateJson } from "../src/schema/validate-json.ts";
import { benchCatalog, benchLwir } from "./worker/bench-workflows.ts";

const REPS = 300;

async function time(name: string, fn: () => unknown): Promise<void> {
  for (let i = 0; i < 20; i++) await fn(); // warm the JIT
  const samples: number[] = [];
  for (let i = 0; i < REPS; i++) {
    const t0 = performance.now();
    await fn();
    samples.push(performance.now() - t0);
  }
  samples.sort((a, b) => a - b);
  const median = samples[Math.floor(samples.length / 2)] as number;
  console.log(
    `${name.padEnd(72)} ${(median * 1000).toFixed(0).padStart(6)} µs (p90 ${((samples[Math.floor(REPS * 0.9)] as number) * 1000).toFixed(0)} µs)`,
  );
}

const { workflowId, lwir } = await benchLwir({ kind: "noop-chain", n: 1 });
const registered = benchCatalog.get(workflowId) as RegisteredWorkflow;
const caps = await capabilitiesOf(registered);
const body = JSON.stringify({ lwir, input: {} });
const requested: RunEvent = {
  seq: 1,
  at: Date.now(),
  type: "RunRequested",
  payload: { workflowId, input: {}, trigger: { kind: "lwir" }, tenant: "dev", lwir, schemaNormalizer: SCHEMA_NORMALIZER },
} as unknown as RunEvent;

console.log(`start path, pure CPU, one-step no-op LWIR (${body.length} bytes), median of ${REPS}`);
console.log("API (per request):");
await time("JSON.parse of the body", () => JSON.parse(body));
await time("validateLwir (structure)", () => validateLwir(lwir));
await time("capabilitiesOf (API, cached per isolate)", () => capabilitiesOf(registered));
await time("checkLwir (structure + binding)", () => checkLwir(lwir, caps));
await time("canonicalBytes of the LWIR (quota)", () => canonicalBytes(lwir));
await time("validateJson of the input", () => validateJson(caps.inputSchema, {}, "input.invalid"));
await time("digestJson of the input (conflict check)", () => digestJson({}));
console.log("run object start:");
await time("canonicalJson of input + lwir (refuses what the log cannot hold)", () => canonicalJson({ input: {}, lwir }));
await time("canonicalJson of the RunRequested payload (the append)", () => canonicalJson(requested.payload));
await time("deriveRunState of the one event", () => deriveRunState([requested]));
console.log("engine (each alarm slice, before this change; now once per isolate):");
await time("snapshotDefinition (hash the definition), @2 normalizer", () =>
  snapshotDefinition(registered.definition, registered.tools, registered.modelOverrides, SCHEMA_NORMALIZER),
);
await time("snapshotDefinition, @1 (legacy) normalizer", () =>
  snapshotDefinition(registered.definition, registered.tools, registered.modelOverrides, LEGACY_SCHEMA_NORMALIZER),
);
