/**
 * Reliability item 12, interleaving at the start: concurrent starts of one adopted anchor (the
 * same input, and sometimes another input), racing cancels and reads, while the offline planner
 * and worker calls are pending (`offlineLatencyMs`). Pass: one RunRequested and at most one
 * planner session per run, whichever input arrives first owns the run and starts with the other
 * input are refused (409 `run_id_conflict`), an accepted cancel leaves
 * RunCancelled last and alone, and the run index (what `GET /v1/runs` serves) ends with the run's
 * own status — an index write that lands after the cancel's would be a lost update. Seeds:
 * LITTLE_TORTURE_SEEDS / 4 (at least 2).
 */
import { env } from "cloudflare:workers";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { EnvModelResolver } from "../../../src/adapters/models/env-model-resolver.ts";
import { overrideWiring } from "../../../src/wiring.ts";
import { call, tenantToken } from "../../api/support/api-call.ts";
import { runStub } from "../../support/drive.ts";
import { Prng } from "../durability/support/prng.ts";
import { tortureSeeds } from "../security/support/random.ts";

const SEEDS = Math.max(2, Math.ceil(tortureSeeds() / 4));
const WF = "support.summarize-ticket";
const ENDED = new Set(["completed", "failed", "cancelled"]);
const totals = { seeds: 0, operations: 0, starts: 0, refusedStarts: 0, cancels: 0, cancelled: 0, violations: 0 };

beforeEach(() => overrideWiring({ models: new EnvModelResolver({ mode: "offline", secrets: {}, offlineLatencyMs: 40 }) }));
afterEach(() => overrideWiring({}));
afterAll(() => {
  console.log(
    `[item 12 anchors] seeds ${totals.seeds}, concurrent operations ${totals.operations} (${totals.starts} starts, ${totals.refusedStarts} with the losing input refused, ${totals.cancels} cancels), runs cancelled ${totals.cancelled}; double starts, events after cancel, index lost updates, unexpected answers: ${totals.violations}`,
  );
});

type Answer = { kind: "start" | "other-start" | "cancel" | "read"; status: number; code?: string; runStatus?: string };

describe("interleaving at the start (item 12)", () => {
  for (let seed = 1; seed <= SEEDS; seed++) {
    it(`seed ${seed}: concurrent starts of one anchor, cancels and reads make one run and lose no update`, async () => {
      const rng = new Prng(seed * 104_729 + 3);
      const tenant = `ilanc_${seed}_${crypto.randomUUID().slice(0, 8)}`;
      const token = await tenantToken(tenant);
      const minted = await call("POST", `/v1/workflows/${WF}/anchors`, { token });
      expect(minted.status).toBe(201);
      const runId = (minted.json.run as { runId: string }).runId;
      const input = { ticketId: `T-${seed}`, transcript: "I cannot log in since Monday." };
      const answers: Answer[] = [];
      const op = (kind: Answer["kind"], send: () => ReturnType<typeof call>) => async () => {
        const r = await send();
        answers.push({
          kind,
          status: r.status,
          ...(r.json.error ? { code: r.json.error.code } : {}),
          ...((r.json.run as { status?: string } | undefined)?.status ? { runStatus: (r.json.run as { status: string }).status } : {}),
        });
      };
      const calls: Array<() => Promise<void>> = [];
      for (let i = rng.int(3, 6); i > 0; i--)
        calls.push(op("start", () => call("POST", `/v1/workflows/${WF}/runs`, { token, body: { runId, input } })));
      for (let i = rng.int(0, 2); i > 0; i--)
        calls.push(
          op("other-start", () =>
            call("POST", `/v1/workflows/${WF}/runs`, { token, body: { runId, input: { ...input, ticketId: "other" } } }),
          ),
        );
      if (rng.chance(0.7))
        for (let i = rng.int(1, 2); i > 0; i--) calls.push(op("cancel", () => call("POST", `/v1/runs/${runId}/cancel`, { token })));
      for (let i = rng.int(1, 3); i > 0; i--)
        calls.push(op("read", () => call("GET", rng.chance(0.5) ? `/v1/runs/${runId}` : "/v1/runs", { token })));
      for (let i = calls.length - 1; i > 0; i--) {
        const j = rng.int(0, i);
        [calls[i], calls[j]] = [calls[j] as () => Promise<void>, calls[i] as () => Promise<void>];
      }
      const jitters = calls.map(() => rng.int(0, 60));
      await Promise.all(
        calls.map(async (f, i) => {
          // Seeded jitter: which call reaches the run first (not a wait for its result).
          await new Promise((resolve) => setTimeout(resolve, jitters[i]));
          await f();
        }),
      );
      const view = await runStub(runId, tenant).waitForEnd(20_000);
      const events = await runStub(runId, tenant).events({ limit: 10_000 });
      const indexRow = await env.DB.prepare("SELECT status FROM runs WHERE tenant = ? AND run_id = ?")
        .bind(tenant, runId)
        .first<{ status: string }>();
      const violations: string[] = [];
      const requested = events.filter((e) => e.type === "RunRequested").length;
      const started = answers.some((a) => (a.kind === "start" || a.kind === "other-start") && a.status < 300);
      if (requested !== (started ? 1 : 0))
        violations.push(`${requested} RunRequested for ${started ? "a started" : "an unstarted"} anchor`);
      const planners = events.filter((e) => e.type === "harness.session.started" && e.payload.role === "planner").length;
      if (planners > 1) violations.push(`${planners} planner sessions`);
      const cancelAt = events.findIndex((e) => e.type === "RunCancelled");
      if (cancelAt >= 0 && cancelAt !== events.length - 1)
        violations.push(
          `events after RunCancelled: ${events
            .slice(cancelAt + 1)
            .map((e) => e.type)
            .join(",")}`,
        );
      const cancelAnswered = answers.some((a) => a.kind === "cancel" && a.runStatus === "cancelled");
      // A cancel that reached the anchor before any start ends it in the index (no run object, no log).
      const anchorCancelled = cancelAnswered && requested === 0;
      if (cancelAnswered && cancelAt < 0 && !anchorCancelled) violations.push("a cancel answered cancelled, none logged");
      if (anchorCancelled && indexRow?.status !== "cancelled") violations.push(`anchor cancelled but index says ${indexRow?.status}`);
      if (events.some((e, i) => e.seq !== i + 1)) violations.push("seq not dense");
      if (requested > 0 && !ENDED.has(view.status)) violations.push(`run still ${view.status}`);
      if (requested > 0 && indexRow?.status !== view.status) violations.push(`index says ${indexRow?.status}, run is ${view.status}`);
      // Whichever input reached the run first owns it: every start with the other input is 409.
      const winners = new Set(answers.filter((a) => (a.kind === "start" || a.kind === "other-start") && a.status < 300).map((a) => a.kind));
      if (winners.size > 1) violations.push("both inputs were accepted as starts of one run");
      for (const a of answers) {
        const ok =
          (a.status < 300 && (a.kind !== "start" && a.kind !== "other-start" ? true : winners.size === 1)) ||
          ((a.kind === "start" || a.kind === "other-start") && a.status === 409 && a.code === "run_id_conflict" && !winners.has(a.kind)) ||
          (a.kind === "cancel" && (a.status === 404 || a.status === 409)) ||
          ((a.kind === "start" || a.kind === "other-start") && anchorCancelled && a.status === 409 && a.code === "run_ended");
        if (!ok || a.status >= 500) violations.push(`${a.kind}: ${a.status} ${a.code ?? ""}`);
      }
      totals.seeds++;
      totals.operations += answers.length;
      totals.starts += answers.filter((a) => a.kind !== "cancel" && a.kind !== "read").length;
      totals.refusedStarts += answers.filter((a) => a.status === 409 && a.code === "run_id_conflict").length;
      totals.cancels += answers.filter((a) => a.kind === "cancel").length;
      if (view.status === "cancelled") totals.cancelled++;
      totals.violations += violations.length;
      console.log(
        `[item 12 anchors seed ${seed}] operations ${answers.length}, run ${view.status}, events ${events.length}, answers ${answers.map((a) => `${a.kind}:${a.status}${a.code ? `/${a.code}` : ""}${a.kind === "cancel" ? `→${a.runStatus}` : ""}`).join(" ")}; violations ${violations.length}`,
      );
      expect(violations).toEqual([]);
    }, 60_000);
  }
});
