import { MockLanguageModelV4 } from "ai/test";
import { afterEach, describe, expect, it } from "vitest";
import { overrideWiring } from "../../src/wiring.ts";
import { runStub } from "../support/drive.ts";
import { resolverFor, result, scriptedPlanner } from "../support/scripted-models.ts";

afterEach(() => overrideWiring({}));

describe("cancellation of a running run", () => {
  it("aborts the model call in flight, ends the log with RunCancelled, and nothing runs after it", async () => {
    let aborted = false;
    const hangingWorker = new MockLanguageModelV4({
      provider: "openai.chat",
      modelId: "gpt-4o-mini",
      doGenerate: (options) =>
        new Promise((resolve, reject) => {
          options.abortSignal?.addEventListener("abort", () => {
            aborted = true;
            reject(options.abortSignal?.reason ?? new Error("aborted"));
          });
          setTimeout(() => resolve(result([{ type: "text", text: '{"summary":"late","severity":"low"}' }])), 30_000);
        }),
    });
    overrideWiring({ models: resolverFor(scriptedPlanner(), hangingWorker) });
    const client = runStub("run_cancel_me");
    await client.start({
      runId: "run_cancel_me",
      workflowId: "support.summarize-ticket",
      input: { ticketId: "T-5", transcript: "Slow one." },
      trigger: { kind: "http" },
    });
    // Wait (over RPC, not by sleeping) until the worker's model call is in flight.
    for (let i = 0; i < 200; i++) {
      const events = await client.events({ limit: 1_000, types: ["harness.model.called"] });
      if (events.some((e) => (e.payload as { sessionId: string }).sessionId.startsWith("worker:"))) break;
      await client.waitForEnd(20);
    }
    const view = await client.cancel("the customer withdrew the ticket");
    expect(view.status).toBe("cancelled");
    const ended = await client.waitForEnd(5_000);
    expect(ended.status).toBe("cancelled");
    expect(aborted).toBe(true);
    const events = await client.events({ limit: 1_000 });
    expect(events.at(-1)).toMatchObject({ type: "RunCancelled", payload: { reason: "the customer withdrew the ticket" } });
    expect(events.filter((e) => e.type === "RunCancelled")).toHaveLength(1);
    expect(events.some((e) => e.type === "RunCompleted" || e.type === "RunFailed")).toBe(false);
  });
});
