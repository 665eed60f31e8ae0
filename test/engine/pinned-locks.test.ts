import { MockLanguageModelV4 } from "ai/test";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { lockedOnce } from "../../src/engine/pinned-locks.ts";
import { snapshotDefinition } from "../../src/identity/definition-snapshot.ts";
import { compileAndLock } from "../../src/lwir/register-workflow-version.ts";
import { defineWorkflow } from "../../src/sdk/define-workflow.ts";
import { model } from "../../src/sdk/model.ts";
import { tool } from "../../src/sdk/tool.ts";

const MOCK = new MockLanguageModelV4({ provider: "mock", modelId: "m" });
const noop = tool({ description: "Does nothing", inputSchema: z.object({}), execute: async () => ({ ok: true }) });
const definition = (description: string) =>
  defineWorkflow({
    id: "pinned.locks",
    description,
    input: z.object({ n: z.number() }),
    output: { mode: "json" },
    models: [model(MOCK, { description: "unused" })],
    planner: { model: MOCK, system: "unused" },
    tools: { noop },
  });
const lwir = (description: string) => ({
  apiVersion: "littleworkflow.dev/v0.1",
  kind: "Workflow",
  metadata: { name: "pinned.locks", version: "0.1.0", description },
  input: { schema: { type: "object", properties: { n: { type: "number" } }, required: ["n"] } },
  output: { schema: true },
  permissions: { models: [], tools: ["noop"], secrets: [], network: [] },
  steps: [{ id: "noop", uses: "tool.call", needs: [], with: { tool: "noop", input: {} }, output: { mode: "json" } }],
});

describe("given LWIR is compiled and locked once per isolate per definition", () => {
  it("the same document (as another object, keys in another order) and definition: the same lock, equal to a fresh compile", async () => {
    const caps = await snapshotDefinition(definition("one"), { noop });
    const first = lockedOnce(lwir("plan a"), caps);
    const { steps, ...rest } = lwir("plan a");
    const again = lockedOnce({ steps, ...rest }, caps);
    expect(again).toBe(first);
    const fresh = compileAndLock(lwir("plan a"), caps);
    expect([first.version.hash, first.lockHash]).toEqual([fresh.version.hash, fresh.lockHash]);
  });

  it("another document or another definition compiles anew; an invalid document throws every time", async () => {
    const caps = await snapshotDefinition(definition("one"), { noop });
    const other = await snapshotDefinition(definition("two"), { noop });
    expect(other.definitionHash).not.toBe(caps.definitionHash);
    const a = lockedOnce(lwir("plan b"), caps);
    expect(lockedOnce(lwir("plan c"), caps).version.hash).not.toBe(a.version.hash);
    const underOther = lockedOnce(lwir("plan b"), other);
    expect(underOther).not.toBe(a);
    expect(underOther.lockHash).toBe(compileAndLock(lwir("plan b"), other).lockHash);
    const broken = { ...lwir("plan d"), steps: [{ id: "noop", uses: "tool.call", needs: ["missing"], with: { tool: "noop" } }] };
    expect(() => lockedOnce(broken, caps)).toThrow();
    expect(() => lockedOnce(broken, caps)).toThrow();
  });
});
