import { afterEach, describe, expect, it, vi } from "vitest";
import { catalogOf } from "../../../src/engine/run-environment.ts";
import { overrideWiring } from "../../../src/wiring.ts";
import { call, runEvents } from "../../api/support/api-call.ts";
import { driveToEnd, runStub } from "../../support/drive.ts";
import { leakingWorker, resolverOf } from "../injection/support/adversarial-models.ts";
import { echoStep, injectionLwir, injectionWorkflow, leakStep } from "../injection/support/injection-workflow.ts";
import { formsFound, leakyValue } from "../injection/support/secret-forms.ts";
import { tenantWithSecret } from "../injection/support/secret-tenant.ts";
import { dumpRunObject } from "../injection/support/storage-dump.ts";

// Issue 15, finding 9 (first half): the run object appended and logged `internal_error` messages
// unredacted. A drive slice that throws an error the engine does not name (here a durable write
// failing with a message that quotes the run's bound secret in every promised form, as a storage
// error quoting the value it refused would) reaches `RunObject.onDriveError`: its console line on
// each of the 5 failures and its final `RunFailed{internal_error}` must hold only the redacted form.

afterEach(() => overrideWiring({}));

type RunBody = { runId: string; status: string };

describe("the run object redacts what it writes about a failed slice", () => {
  it("an internal error quoting the bound secret: console lines and RunFailed hold [redacted:CRM_TOKEN]", async () => {
    const { tenant, token, secret } = await tenantWithSecret("runobj");
    let seed = 7;
    const pick = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed % n;
    };
    const worker = leakingWorker(() => secret, 1, false);
    overrideWiring({
      models: resolverOf(worker, worker),
      workflows: catalogOf([injectionWorkflow]),
      // Every slice fails at the same durable write, with the secret in the error's message.
      beforeAppend: (events) => {
        if (events.some((e) => e.type === "RunStarted"))
          throw new Error(`write refused for value ${JSON.stringify(leakyValue(secret, pick))}`);
      },
    });
    const logged: string[] = [];
    const spy = vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
      logged.push(args.map((a) => (a instanceof Error ? `${a.message}\n${a.stack ?? ""}` : String(a))).join(" "));
    });
    let runId: string;
    try {
      const r = await call("POST", "/v1/lwir/runs", {
        token,
        body: { lwir: await injectionLwir([leakStep, echoStep], ["leak"]), input: { mode: "return", seed: 1 } },
      });
      expect(r.status, r.text).toBeLessThan(300);
      runId = (r.json.run as RunBody).runId;
      expect((await driveToEnd(runId, 12, tenant)).status).toBe("failed");
    } finally {
      spy.mockRestore();
    }
    const slices = logged.filter((line) => line.includes(`run ${runId}: drive slice failed`));
    expect(slices).toHaveLength(5);
    for (const line of slices) expect(line).toContain("[redacted:CRM_TOKEN]");
    expect(formsFound(logged.join("\n"), secret)).toEqual([]);

    const events = await runEvents(runId, token);
    const failed = events.at(-1) as { type: string; payload: { causeCode: string; message: string } };
    expect(failed.type).toBe("RunFailed");
    expect(failed.payload.causeCode).toBe("internal_error");
    expect(failed.payload.message).toContain("[redacted:CRM_TOKEN]");
    expect(formsFound(JSON.stringify(events), secret)).toEqual([]);
    expect(formsFound(await dumpRunObject(runId, tenant), secret)).toEqual([]);
  });

  it("a cancel reason quoting the bound secret is appended redacted", async () => {
    const { tenant, token, secret } = await tenantWithSecret("cancel");
    const worker = leakingWorker(() => secret, 1, false);
    overrideWiring({ models: resolverOf(worker, worker), workflows: catalogOf([injectionWorkflow]) });
    const r = await call("POST", "/v1/lwir/runs", {
      token,
      body: { lwir: await injectionLwir([leakStep, echoStep], ["leak"]), input: { mode: "return", seed: 1 } },
    });
    const runId = (r.json.run as RunBody).runId;
    // Straight to the run object (the API's cancel takes no reason; programmatic callers give one).
    const view = await runStub(runId, tenant).cancel(`operator pasted ${secret} and ${btoa(secret)}`);
    expect(view.status).toBe("cancelled");
    const events = await runEvents(runId, token);
    const cancelled = events.at(-1) as { type: string; payload: { reason: string } };
    expect(cancelled.type).toBe("RunCancelled");
    expect(cancelled.payload.reason).toContain("[redacted:CRM_TOKEN]");
    expect(formsFound(await dumpRunObject(runId, tenant), secret)).toEqual([]);
  });
});
