import { evictDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { Webhook } from "standardwebhooks";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { EnvModelResolver } from "../../../src/adapters/models/env-model-resolver.ts";
import { overrideWiring } from "../../../src/wiring.ts";
import { rawRunStub, runStub } from "../../support/drive.ts";
import { Rng, reportFigure, tortureSeeds, tortureTimeout } from "./support/random.ts";
import {
  type Answer,
  deliver,
  HOOK_PATH,
  nowSeconds,
  passedVerification,
  signDelivery,
  WEBHOOK_SECRET,
} from "./support/webhook-delivery.ts";
import { mutate } from "./support/webhook-mutations.ts";

// Item 5 of the reliability suite: Standard Webhooks reference vectors, thousands of mutated
// deliveries (none may pass verification), and duplicate deliveries — concurrent, and after the
// run object was evicted — that must make exactly one run.

const INPUT = { ticketId: "T-77", transcript: "Exports time out since Tuesday." };
const BODY = JSON.stringify(INPUT);

beforeEach(() => overrideWiring({ models: new EnvModelResolver({ mode: "offline", secrets: {} }) }));
afterEach(() => {
  overrideWiring({});
  vi.useRealTimers();
});

describe("Standard Webhooks reference vector", () => {
  // From the Standard Webhooks specification and its reference libraries.
  const VECTOR = {
    secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
    id: "msg_p5jXN8AQM9LWM0D4loKWxJek",
    timestamp: 1614265330,
    payload: '{"test": 2432232314}',
    signature: "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=",
  };
  const headers = {
    "webhook-id": VECTOR.id,
    "webhook-timestamp": String(VECTOR.timestamp),
    "webhook-signature": VECTOR.signature,
  };

  it("the library signs the vector to its published signature, and the Worker's secret is the vector's", () => {
    expect(new Webhook(VECTOR.secret).sign(VECTOR.id, new Date(VECTOR.timestamp * 1000), VECTOR.payload)).toBe(VECTOR.signature);
    expect(WEBHOOK_SECRET).toBe(VECTOR.secret);
  });

  it("the Worker verifies the vector at its own time (the input check answers, not the signature check)", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(VECTOR.timestamp * 1000 + 60_000);
    const r = await deliver(VECTOR.payload, headers);
    // {"test": …} is not the workflow's input: the signature passed, then the input schema refused it.
    expect(r.status, r.text).toBe(422);
    expect(r.code).toBe("input_schema_error");
  });

  it("the same vector replayed today is refused as too old", async () => {
    const r = await deliver(VECTOR.payload, headers);
    expect(r.status).toBe(401);
    expect(r.code).toBe("webhook_timestamp_invalid");
  });
});

/** Sends `count` mutations of valid deliveries to `path`; returns what passed verification and the tallies. */
async function fuzz(path: string, count: number, seed: number, passed: (a: Answer) => boolean) {
  const rng = new Rng(seed);
  const byKind = new Map<string, number>();
  const forgeries: string[] = [];
  const statuses = new Map<number, number>();
  let serverErrors = 0;
  const at = nowSeconds();
  for (let start = 0; start < count; start += 25) {
    const batch = Array.from({ length: Math.min(25, count - start) }, (_, k) => {
      const id = `msg_fuzz_${start + k}_${rng.int(1e9)}`;
      const mutant = mutate(rng, BODY, signDelivery(id, BODY, at));
      return deliver(mutant.body, mutant.headers, path).then((answer) => ({ mutant, answer }));
    });
    for (const { mutant, answer } of await Promise.all(batch)) {
      byKind.set(mutant.kind, (byKind.get(mutant.kind) ?? 0) + 1);
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      if (answer.status >= 500) serverErrors++;
      if (passed(answer)) forgeries.push(`${mutant.kind}: ${answer.status} ${JSON.stringify(mutant.headers)}`);
    }
  }
  return { forgeries, serverErrors, kinds: byKind.size, statuses: JSON.stringify(Object.fromEntries(statuses)) };
}

describe("mutated deliveries", () => {
  it(
    "no mutation of a valid delivery passes verification",
    async () => {
      const count = tortureSeeds() * 100;
      const { forgeries, serverErrors, kinds, statuses } = await fuzz(HOOK_PATH, count, 0x510e527f, passedVerification);
      reportFigure("webhook mutations", { tried: count, forgeriesAccepted: forgeries.length, serverErrors, kinds, statuses });
      expect(forgeries).toEqual([]);
      expect(serverErrors).toBe(0);
      expect(kinds).toBeGreaterThanOrEqual(25);
    },
    tortureTimeout(3000),
  );

  it(
    "the section-trigger route (/hooks/:workflowId/runs/:runId) verifies the same way: no mutation reaches the run lookup",
    async () => {
      const path = `${HOOK_PATH}/runs/run_no_such_section_run`;
      // Control: a valid delivery passes verification and only then meets the unknown run (404).
      const control = await deliver(BODY, signDelivery(`msg_section_${crypto.randomUUID()}`, BODY, nowSeconds()), path);
      expect([control.status, control.code]).toEqual([404, "run_not_found"]);
      const count = tortureSeeds() * 20;
      // Here a 404 means the signature passed (the run is looked up after verification).
      const { forgeries, serverErrors, statuses } = await fuzz(path, count, 0x6a09e669, (a) => a.status === 404 || passedVerification(a));
      reportFigure("webhook mutations (section route)", { tried: count, forgeriesAccepted: forgeries.length, serverErrors, statuses });
      expect(forgeries).toEqual([]);
      expect(serverErrors).toBe(0);
    },
    tortureTimeout(1000),
  );

  it(
    "timestamps signed correctly but outside the 5-minute tolerance are refused; inside it they pass",
    async () => {
      const rng = new Rng(0x9b05688c);
      const count = tortureSeeds() * 5;
      const now = nowSeconds();
      for (let i = 0; i < count; i++) {
        const skew = (rng.bool() ? 1 : -1) * (310 + rng.int(10 ** (2 + rng.int(6))));
        const r = await deliver(BODY, signDelivery(`msg_skew_${i}`, BODY, now + skew));
        expect(r.status, `skew ${skew}`).toBe(401);
        expect(r.code).toBe("webhook_timestamp_invalid");
      }
      // Controls, so the refusals above are not vacuous: inside the tolerance, with extra signatures.
      for (const [name, skew] of [
        ["290 s old", -290],
        ["290 s ahead", 290],
      ] as const) {
        const r = await deliver(BODY, signDelivery(`msg_inside_${name}_${rng.int(1e9)}`, BODY, now + skew));
        expect(r.status, name).toBe(202);
      }
      const rotated = signDelivery(`msg_rotated_${rng.int(1e9)}`, BODY, now);
      const old = signDelivery(rotated["webhook-id"], BODY, now, "whsec_dGhpcyBpcyBhbiBvbGQga2V5IHRoYXQgaXMgcm90YXRlZA==");
      const r = await deliver(BODY, {
        ...rotated,
        "webhook-signature": `${old["webhook-signature"]} v2,xyz ${rotated["webhook-signature"]}`,
      });
      expect(r.status).toBe(202);
      reportFigure("webhook timestamp skew", { outsideRefused: count, insideAccepted: 3 });
    },
    tortureTimeout(1000),
  );
});

describe("duplicate deliveries make exactly one run", () => {
  async function runCount(runId: string): Promise<{ requested: number; deliveries: number }> {
    const events = await runStub(runId, "dev").events({ limit: 1000, types: ["RunRequested"] });
    const row = await env.DB.prepare("SELECT COUNT(*) AS n FROM webhook_deliveries WHERE run_id = ?").bind(runId).first<{ n: number }>();
    return { requested: events.filter((e) => e.type === "RunRequested").length, deliveries: row?.n ?? 0 };
  }

  it("the same delivery sent concurrently, again after the run object was evicted, and re-signed later, is one run", async () => {
    const id = `msg_dup_${crypto.randomUUID()}`;
    const signed = signDelivery(id, BODY, nowSeconds());
    const storm = await Promise.all(Array.from({ length: 30 }, () => deliver(BODY, signed)));
    const runIds = new Set(storm.map((a) => a.runId));
    expect(runIds.size).toBe(1);
    expect(storm.filter((a) => a.status === 202)).toHaveLength(1);
    expect(storm.filter((a) => a.status === 200)).toHaveLength(29);
    const runId = [...runIds][0] as string;

    await evictDurableObject(rawRunStub(runId, "dev"));
    const afterEviction = await Promise.all(Array.from({ length: 10 }, () => deliver(BODY, signed)));
    expect(afterEviction.map((a) => [a.status, a.runId])).toEqual(Array.from({ length: 10 }, () => [200, runId]));

    // The sender retries later with a fresh timestamp and signature: still the same run.
    const resigned = await deliver(BODY, signDelivery(id, BODY, nowSeconds() + 1));
    expect([resigned.status, resigned.runId]).toEqual([200, runId]);

    // A replayed id carrying another (validly signed) body is a conflict, not a second run.
    const other = JSON.stringify({ ...INPUT, ticketId: "T-other" });
    const conflict = await deliver(other, signDelivery(id, other, nowSeconds()));
    expect([conflict.status, conflict.code]).toEqual([409, "webhook_id_conflict"]);

    expect(await runCount(runId)).toEqual({ requested: 1, deliveries: 1 });
    reportFigure("webhook duplicates", { deliveries: 30 + 10 + 2, runs: 1 });
  });
});
