import { call } from "../../../api/support/api-call.ts";
import { runStub } from "../../../support/drive.ts";
import { Prng } from "../../durability/support/prng.ts";
import { APPROVAL_PREFIX, interleavingLwir, modelCallsInFlight } from "./interleaving-workflow.ts";

/** One API call of a scenario and what it answered. */
export type Op = {
  readonly kind: "start" | "trigger" | "cancel" | "decide" | "read";
  readonly phase: "burst" | "drain" | "final";
  readonly key?: string;
  readonly approvalId?: string;
  readonly decision?: "approve" | "deny";
  issuedAt?: number;
  answeredAt?: number;
  /** A model call was in flight when the answer came back. */
  whilePending?: boolean;
  status: number;
  code?: string;
  occurrenceId?: string;
  created?: boolean;
  runStatus?: string;
};

export type Scenario = { readonly runId: string; readonly ops: Op[]; readonly bursts: number[] };

const ENDED = new Set(["completed", "failed", "cancelled"]);

type Approval = { approvalId: string; argsHash: string; status: string };

/**
 * One seeded interleaving against one section run: a burst of duplicate starts, triggers (some
 * keys sent several times, some texts needing approval), reads and maybe cancels, each after a
 * seeded jitter so the calls land in a seeded order while model calls are pending; then rounds in
 * which every waiting approval gets 2–3 concurrent decisions (sometimes conflicting), racing late
 * triggers and maybe a cancel; then a final burst of cancels, triggers and a stale decision once
 * the section is idle. Every answer is recorded for the invariants.
 */
export async function runScenario(seed: number): Promise<Scenario> {
  const rng = new Prng(seed * 7_919 + 17);
  const runId = `il${seed}_${crypto.randomUUID().slice(0, 8)}`;
  const lwir = await interleavingLwir();
  const ops: Op[] = [];
  const bursts: number[] = [];
  // A logical clock: which calls were issued after which were answered, whatever their timing.
  let clock = 0;
  const record = (issuedAt: number, op: Op) => {
    op.whilePending = modelCallsInFlight() > 0;
    op.issuedAt = issuedAt;
    op.answeredAt = ++clock;
    ops.push(op);
  };
  const text = (label: string) => `${rng.chance(0.4) ? APPROVAL_PREFIX : ""}s${seed}-${label}-${runId}`;

  const start = (phase: Op["phase"]) => async () => {
    const issued = ++clock;
    const r = await call("POST", "/v1/lwir/runs", { body: { runId, lwir, input: { text: `s${seed}-start-${runId}` } } });
    record(issued, { kind: "start", phase, status: r.status, ...codeOf(r.json) });
  };
  const trigger = (phase: Op["phase"], key: string | undefined, input: string) => async () => {
    const issued = ++clock;
    const r = await call("POST", `/v1/runs/${runId}/triggers`, {
      body: { input: { text: input } },
      ...(key ? { headers: { "idempotency-key": key } } : {}),
    });
    record(issued, {
      kind: "trigger",
      phase,
      ...(key ? { key } : {}),
      status: r.status,
      ...codeOf(r.json),
      ...(typeof r.json.occurrenceId === "string" ? { occurrenceId: r.json.occurrenceId } : {}),
      ...(typeof r.json.created === "boolean" ? { created: r.json.created } : {}),
    });
  };
  const cancel = (phase: Op["phase"]) => async () => {
    const issued = ++clock;
    const r = await call("POST", `/v1/runs/${runId}/cancel`, { body: { reason: `seed ${seed}` } });
    record(issued, { kind: "cancel", phase, status: r.status, ...codeOf(r.json), ...runStatusOf(r.json) });
  };
  const read = (phase: Op["phase"]) => async () => {
    const issued = ++clock;
    const path = rng.chance(0.5) ? `/v1/runs/${runId}` : `/v1/runs/${runId}/approvals`;
    const r = await call("GET", path);
    record(issued, { kind: "read", phase, status: r.status, ...codeOf(r.json) });
  };
  const decide = (phase: Op["phase"], a: Approval, decision: "approve" | "deny") => async () => {
    const issued = ++clock;
    const r = await call("POST", `/v1/runs/${runId}/approvals/${a.approvalId}`, { body: { decision, argsHash: a.argsHash } });
    record(issued, {
      kind: "decide",
      phase,
      approvalId: a.approvalId,
      decision,
      status: r.status,
      ...codeOf(r.json),
      ...(typeof r.json.created === "boolean" ? { created: r.json.created } : {}),
    });
  };
  const burst = async (calls: Array<() => Promise<void>>) => {
    shuffle(calls, rng);
    bursts.push(calls.length);
    const jitters = calls.map(() => rng.int(0, 15));
    await Promise.all(
      calls.map(async (f, i) => {
        // Seeded jitter: which call reaches the run object first (not a wait for its result).
        await new Promise((resolve) => setTimeout(resolve, jitters[i]));
        await f();
      }),
    );
  };

  // Burst: duplicate starts, keyed and duplicated triggers, reads, maybe cancels, all at once.
  const first: Array<() => Promise<void>> = [];
  for (let i = rng.int(2, 4); i > 0; i--) first.push(start("burst"));
  for (let t = rng.int(3, 6); t > 0; t--) {
    const key = `k${t}`;
    const input = text(`t${t}`);
    for (let copies = rng.int(1, 3); copies > 0; copies--) first.push(trigger("burst", key, input));
  }
  for (let u = rng.int(0, 2); u > 0; u--) first.push(trigger("burst", undefined, text(`u${u}`)));
  for (let r = rng.int(1, 3); r > 0; r--) first.push(read("burst"));
  if (rng.chance(0.4)) for (let c = rng.int(1, 2); c > 0; c--) first.push(cancel("burst"));
  await burst(first);

  // Rounds: decide every waiting approval concurrently (2–3 decisions, sometimes conflicting).
  let decided: Approval | undefined;
  for (let round = 0; round < 80; round++) {
    const view = (await call("GET", `/v1/runs/${runId}`)).json.run as { status: string } | undefined;
    if (view && ENDED.has(view.status)) break;
    const listed = await call("GET", `/v1/runs/${runId}/approvals`);
    const waiting = ((listed.json.approvals ?? []) as Approval[]).filter((a) => a.status === "waiting_for_approval");
    if (waiting.length > 0) {
      const calls: Array<() => Promise<void>> = [];
      for (const a of waiting) {
        for (let d = rng.int(2, 3); d > 0; d--) calls.push(decide("drain", a, rng.chance(0.25) ? "deny" : "approve"));
        decided = a;
      }
      if (rng.chance(0.3)) calls.push(trigger("drain", `late${round}`, text(`late${round}`)));
      if (rng.chance(0.05)) calls.push(cancel("drain"));
      await burst(calls);
      continue;
    }
    if (view?.status === "waiting") break;
    await runStub(runId, "dev").waitForEnd(150);
  }

  // Final burst on the idle section: cancels race triggers and a stale decision.
  const last: Array<() => Promise<void>> = [cancel("final"), trigger("final", "k1", text("t1")), trigger("final", "fin", text("fin"))];
  if (rng.chance(0.5)) last.push(cancel("final"));
  if (decided) last.push(decide("final", decided, "approve"));
  await burst(last);
  await runStub(runId, "dev").waitForEnd(10_000);
  return { runId, ops, bursts };
}

function codeOf(json: { error?: { code: string } }): { code?: string } {
  return json.error ? { code: json.error.code } : {};
}

function runStatusOf(json: Record<string, unknown>): { runStatus?: string } {
  const status = (json.run as { status?: string } | undefined)?.status;
  return status ? { runStatus: status } : {};
}

function shuffle<T>(items: T[], rng: Prng): void {
  for (let i = items.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [items[i], items[j]] = [items[j] as T, items[i] as T];
  }
}
