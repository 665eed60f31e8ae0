/**
 * Global latency: what a caller far from D1's primary waits for. The bench Worker's D1 binding is
 * wrapped (bench/worker/delayed-d1.ts) so every round trip waits `BENCH_D1_DELAY_MS` (default
 * 150 ms: Sydney to Virginia) and is counted per request; the Worker answers the count made before
 * its response as a header. Then, ours and the peer (a Cloudflare Workflow's `create()`, which
 * touches no database) in the same `wrangler dev`: a lone start's ack (median, p99), the median
 * with 16 clients, and the D1 round trips before the ack; and for the other doors that answer a
 * caller — a signed webhook delivery, a signal, a cancel, `GET /v1/runs/:id` of a running run — the answer
 * time and its round trips. The same lone start with no delay gives the local cost.
 *
 * `node bench/global-latency.ts` alone, or in `npm run bench`.
 */
import { Webhook } from "standardwebhooks";
import { type BenchClient, benchClient } from "./support/bench-client.ts";
import type { BenchDev } from "./support/bench-dev.ts";
import type { Row } from "./support/results.ts";
import { noopLwir, startPeer } from "./support/run-starts.ts";
import { runAlone, type Scenario } from "./support/scenario.ts";
import { cell, percentile, summarize, times } from "./support/stats.ts";

const DELAY_MS = Number(process.env.BENCH_D1_DELAY_MS ?? 150);
const ALONE = 20;
const CLIENTS = 16;
const PER_CLIENT = 4;
const DOORS = 10;
const HEADER = "x-bench-d1-before-answer";
/** A model chain long enough to stay running while it is read and cancelled (40 × 200 ms). */
const RUNNING_SHAPE = { kind: "model-chain", n: 40, slot: "bench-200ms" } as const;
const WEBHOOK_WORKFLOW = "support.summarize-ticket";
const WEBHOOK_INPUT = { ticketId: "T-1", transcript: "The export button does nothing." };

type Timed = { ms: number; d1: number; status: number; runId: string | null };
const pause = (ms: number) => new Promise((done) => setTimeout(done, ms));
const d1Of = (headers: Headers) => Number(headers.get(HEADER) ?? Number.NaN);

async function setDelay(api: BenchClient, ms: number): Promise<{ unattributed: number }> {
  return api.ok<{ unattributed: number }>("POST", "/bench/d1", { ms });
}

function startNoop(api: BenchClient, lwir: unknown) {
  return async (): Promise<Timed> => {
    const r = await api.call<{ run?: { runId: string } }>("POST", "/v1/lwir/runs", { lwir, input: {} });
    return { ms: r.ms, d1: d1Of(r.headers), status: r.status, runId: r.body?.run?.runId ?? null };
  };
}

/** A tenant token (`tok_…`, checked in D1 on every request) for tenant `bench-far`, minted with the admin token. */
async function tenantClient(dev: BenchDev): Promise<BenchClient> {
  const admin = benchClient(dev.url, dev.adminToken);
  const minted = await admin.ok<{ token: string }>("POST", "/v1/tokens", { tenant: "bench-far", scopes: ["runs:read", "runs:write"] });
  return benchClient(dev.url, minted.token);
}

async function sequential(n: number, once: () => Promise<Timed>): Promise<Timed[]> {
  const out: Timed[] = [];
  for (let i = 0; i < n; i++) {
    out.push(await once());
    // Let the run finish, so the next ack is not slowed by this run's drive.
    await pause(100);
  }
  return out;
}

async function concurrent(once: () => Promise<Timed>): Promise<Timed[]> {
  const all = await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      const mine: Timed[] = [];
      for (let i = 0; i < PER_CLIENT; i++) mine.push(await once());
      return mine;
    }),
  );
  return all.flat();
}

/** A signed Standard Webhooks delivery of `support.summarize-ticket`, each with its own id. */
function deliverWebhook(dev: BenchDev) {
  const hook = new Webhook(dev.webhookSecret);
  const payload = JSON.stringify(WEBHOOK_INPUT);
  return async (): Promise<Timed> => {
    const id = `msg_${crypto.randomUUID()}`;
    const at = new Date();
    const started = performance.now();
    const res = await fetch(`${dev.url}/v1/hooks/${WEBHOOK_WORKFLOW}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "webhook-id": id,
        "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
        "webhook-signature": hook.sign(id, at, payload),
      },
      body: payload,
    });
    const body = (await res.json()) as { run?: { runId: string } };
    return { ms: performance.now() - started, d1: d1Of(res.headers), status: res.status, runId: body.run?.runId ?? null };
  };
}

/** Starts `DOORS` runs waiting for the signal `go` (not timed), then signals each once it waits: timed. */
async function signalDoor(api: BenchClient): Promise<Timed[]> {
  const { lwir } = await api.ok<{ lwir: unknown }>("POST", "/bench/waits/signal-lwir", {});
  const ids: string[] = [];
  for (let i = 0; i < DOORS; i++) {
    const r = await api.call<{ run?: { runId: string } }>("POST", "/v1/lwir/runs", { lwir, input: {} });
    if (r.body?.run) ids.push(r.body.run.runId);
  }
  const sent: Timed[] = [];
  for (const id of ids) {
    for (let tries = 0; tries < 300; tries++) {
      const read = await api.call<{ run?: { waitReason?: string } }>("GET", `/v1/runs/${id}`);
      if (read.body?.run?.waitReason === "signal") break;
      await pause(50);
    }
    const r = await api.call<unknown>("POST", `/v1/runs/${id}/signals`, { name: "go", payload: {} });
    sent.push({ ms: r.ms, d1: d1Of(r.headers), status: r.status, runId: id });
  }
  return sent;
}

/** Starts `DOORS` long runs (not timed), then reads each once while running and cancels each: both timed. */
async function runningDoors(api: BenchClient): Promise<{ reads: Timed[]; cancels: Timed[]; notRunning: number }> {
  const { lwir } = await api.ok<{ lwir: unknown }>("POST", "/bench/lwir", { shape: RUNNING_SHAPE });
  const ids: string[] = [];
  for (let i = 0; i < DOORS; i++) {
    const r = await api.call<{ run?: { runId: string } }>("POST", "/v1/lwir/runs", { lwir, input: { topic: "latency" } });
    if (r.body?.run) ids.push(r.body.run.runId);
  }
  const reads: Timed[] = [];
  const cancels: Timed[] = [];
  let notRunning = 0;
  for (const id of ids) {
    const read = await api.call<{ run?: { status: string } }>("GET", `/v1/runs/${id}`);
    if (read.body?.run?.status !== "running") notRunning++;
    reads.push({ ms: read.ms, d1: d1Of(read.headers), status: read.status, runId: id });
  }
  for (const id of ids) {
    const cancel = await api.call<unknown>("POST", `/v1/runs/${id}/cancel`, {});
    cancels.push({ ms: cancel.ms, d1: d1Of(cancel.headers), status: cancel.status, runId: id });
  }
  return { reads, cancels, notRunning };
}

const median = (xs: readonly Timed[]) => summarize(xs.map((x) => x.ms));
const roundTrips = (xs: readonly Timed[]) => {
  const s = summarize(xs.map((x) => x.d1));
  return s.min === s.max ? String(s.median) : `${s.median} (${s.min}–${s.max})`;
};
const okCount = (xs: readonly Timed[]) => xs.filter((x) => x.status >= 200 && x.status < 300).length;

export const globalLatency: Scenario = {
  id: "global-latency",
  title: `Global latency: every D1 round trip ${DELAY_MS} ms away (a far primary), ours vs Cloudflare Workflows`,
  async run(ctx) {
    const api = await ctx.client();
    const dev = await ctx.dev();
    const lwir = await noopLwir(api);
    const ours = startNoop(api, lwir);
    const peerStart = startPeer(api);
    const peer = async (): Promise<Timed> => {
      const r = await peerStart();
      return { ms: r.ms, d1: 0, status: r.status, runId: r.id };
    };
    await setDelay(api, 0);
    await ours();
    await peer();
    const local = await sequential(ALONE, ours);
    try {
      const before = await setDelay(api, DELAY_MS);
      await ours();
      const alone = await sequential(ALONE, ours);
      const peerAlone = await sequential(ALONE, peer);
      const loaded = await concurrent(ours);
      const peerLoaded = await concurrent(peer);
      const hooks = await sequential(DOORS, deliverWebhook(dev));
      const tenantStarts = await sequential(DOORS, startNoop(await tenantClient(dev), lwir));
      const doors = await runningDoors(api);
      const signals = await signalDoor(api);
      const after = await setDelay(api, 0);
      ctx.log(
        `lone ack ${median(alone).median.toFixed(1)} ms (peer ${median(peerAlone).median.toFixed(1)} ms), ${roundTrips(alone)} D1 round trips`,
      );
      const lone = median(alone);
      const peerLone = median(peerAlone);
      const rows: Row[] = [
        {
          figure: "D1 round trips before a start's ack",
          ours: roundTrips(alone),
          peer: "0",
          target: "0",
          met: alone.every((x) => x.d1 === 0),
        },
        {
          figure: `lone start ack, median (D1 ${DELAY_MS} ms away)`,
          ours: cell(lone, 1, " ms"),
          peer: cell(peerLone, 1, " ms"),
          ratio: times(lone.median / peerLone.median),
          target: "≤ 30 ms",
          met: lone.median <= 30,
        },
        {
          figure: "lone start ack, p99",
          ours: `${percentile(
            alone.map((x) => x.ms),
            99,
          ).toFixed(1)} ms`,
          peer: `${percentile(
            peerAlone.map((x) => x.ms),
            99,
          ).toFixed(1)} ms`,
        },
        {
          figure: `start ack with ${CLIENTS} clients, median`,
          ours: cell(median(loaded), 1, " ms"),
          peer: cell(median(peerLoaded), 1, " ms"),
          ratio: times(median(loaded).median / median(peerLoaded).median),
        },
        { figure: "lone start ack with D1 local (no delay), median", ours: cell(median(local), 1, " ms") },
        {
          figure: "start with a tenant token (tok_…): ack median / D1 round trips before it",
          ours: `${cell(median(tenantStarts), 1, " ms")} / ${roundTrips(tenantStarts)}`,
        },
        {
          figure: "signed webhook delivery: answer median / D1 round trips before it",
          ours: `${cell(median(hooks), 1, " ms")} / ${roundTrips(hooks)}`,
        },
        {
          figure: "signal to a waiting run: answer median / D1 round trips before it",
          ours: `${cell(median(signals), 1, " ms")} / ${roundTrips(signals)}`,
        },
        {
          figure: "cancel of a running run: answer median / D1 round trips before it",
          ours: `${cell(median(doors.cancels), 1, " ms")} / ${roundTrips(doors.cancels)}`,
        },
        {
          figure: "GET /v1/runs/:id of a running run: answer median / D1 round trips before it",
          ours: `${cell(median(doors.reads), 1, " ms")} / ${roundTrips(doors.reads)}`,
        },
      ];
      const notes = [
        `Each D1 round trip (statement, batch, exec) waits ${DELAY_MS} ms before it is sent (BENCH_D1_DELAY_MS); the peer's create() makes none. The start rows above use the dev token (a Worker secret); a tenant token is checked in D1 on every request (its own row). Round trips are counted inside the Worker request that answers the caller, up to its response; the run objects' own D1 calls (${after.unattributed - before.unattributed} during the scenario, the index rows written after the ack among them) are not the caller's and are not in the count.`,
        `Accepted: ${okCount(alone)}/${alone.length} lone starts, ${okCount(loaded)}/${loaded.length} loaded, ${okCount(hooks)}/${hooks.length} webhook deliveries, ${okCount(doors.cancels)}/${doors.cancels.length} cancels, ${okCount(signals)}/${signals.length} signals; ${doors.notRunning} of the ${doors.reads.length} reads found the run not running.`,
      ];
      return {
        repetitions: ALONE,
        rows,
        notes,
        raw: {
          delayMs: DELAY_MS,
          local,
          alone,
          tenantStarts,
          peerAlone,
          loaded,
          peerLoaded,
          hooks,
          reads: doors.reads,
          cancels: doors.cancels,
          signals,
        },
      };
    } finally {
      await setDelay(api, 0).catch(() => undefined);
    }
  },
};

await runAlone(globalLatency, import.meta.main);
