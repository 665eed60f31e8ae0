import type { RunEvent } from "../../../../src/ports/run-events.ts";
import type { Op } from "./interleave-scenario.ts";

/** What one scenario's log and answers show; every count but the first four must be 0. */
export type Verdict = {
  readonly operations: number;
  readonly acceptedTriggers: number;
  readonly coalescedRetries: number;
  readonly decisions: number;
  /** Accepted triggers with no OccurrenceQueued, or queued occurrences no trigger was given. */
  readonly lostUpdates: string[];
  readonly duplicateQueued: string[];
  /** A key answered with two different occurrences. */
  readonly splitKeys: string[];
  readonly doubleStarts: string[];
  readonly afterCancel: string[];
  readonly seqGaps: string[];
  /** A (stepPath, attempt) started twice. */
  readonly doubleDispatch: string[];
  readonly doubleDecisions: string[];
  readonly unexpectedAnswers: string[];
};

/**
 * Checks a scenario's answers against its run's log: every accepted trigger is queued exactly
 * once (and one key is one occurrence), one RunRequested however many starts, an accepted cancel
 * leaves RunCancelled last and alone, every (stepPath, attempt) started once, seq dense, at most
 * one decision logged per approval and it is the one answered `created: true`.
 */
export function checkScenario(ops: readonly Op[], events: readonly RunEvent[]): Verdict {
  const accepted = ops.filter((o) => o.kind === "trigger" && (o.status === 200 || o.status === 202) && o.occurrenceId);
  const acceptedIds = new Set(accepted.map((o) => o.occurrenceId as string));
  const queued = events.flatMap((e) => (e.type === "OccurrenceQueued" ? [e.payload.occurrenceId] : []));
  const lostUpdates = [
    ...[...acceptedIds].filter((id) => !queued.includes(id)).map((id) => `accepted ${id} never queued`),
    ...queued.filter((id) => !acceptedIds.has(id)).map((id) => `queued ${id} with no accepted trigger`),
  ];
  const duplicateQueued = queued.filter((id, i) => queued.indexOf(id) !== i);
  const byKey = new Map<string, Set<string>>();
  for (const o of accepted) if (o.key) byKey.set(o.key, (byKey.get(o.key) ?? new Set()).add(o.occurrenceId as string));
  const splitKeys = [...byKey].filter(([, ids]) => ids.size > 1).map(([key, ids]) => `${key}: ${[...ids].join(",")}`);

  const requested = events.filter((e) => e.type === "RunRequested").length;
  const doubleStarts = requested === 1 ? [] : [`${requested} RunRequested`];

  const cancelled = events.findIndex((e) => e.type === "RunCancelled");
  const cancelAccepted = ops.some((o) => o.kind === "cancel" && o.status === 200 && o.runStatus === "cancelled");
  const afterCancel: string[] = [];
  if (cancelAccepted && cancelled < 0) afterCancel.push("a cancel was accepted and no RunCancelled is logged");
  if (cancelled >= 0) for (const e of events.slice(cancelled + 1)) afterCancel.push(`${e.type} (seq ${e.seq}) after RunCancelled`);
  if (events.filter((e) => e.type === "RunCancelled").length > 1) afterCancel.push("RunCancelled twice");

  const seqGaps = events.flatMap((e, i) => (e.seq === i + 1 ? [] : [`seq ${e.seq} at position ${i + 1}`]));

  const started = new Map<string, number>();
  for (const e of events)
    if (e.type === "StepStarted")
      started.set(`${e.payload.stepPath}#${e.payload.attempt}`, (started.get(`${e.payload.stepPath}#${e.payload.attempt}`) ?? 0) + 1);
  const doubleDispatch = [...started].filter(([, n]) => n > 1).map(([path, n]) => `StepStarted ${path} ×${n}`);
  const doubleDecisions: string[] = [];
  const logged = new Map<string, string[]>();
  for (const e of events)
    if (e.type === "ApprovalDecided") logged.set(e.payload.approvalId, [...(logged.get(e.payload.approvalId) ?? []), e.payload.decision]);
  for (const [id, decisions] of logged) {
    if (decisions.length > 1) doubleDecisions.push(`ApprovalDecided ${id} ×${decisions.length}`);
    const winners = ops.filter((o) => o.kind === "decide" && o.approvalId === id && o.created === true);
    if (winners.length !== 1) doubleDecisions.push(`${id}: ${winners.length} decisions answered created`);
    else if (LOGGED_AS[winners[0]?.decision as "approve" | "deny"] !== decisions[0])
      doubleDecisions.push(`${id}: answered ${winners[0]?.decision}, logged ${decisions[0]}`);
  }
  for (const o of ops)
    if (o.kind === "decide" && o.created === true && o.approvalId && !logged.has(o.approvalId))
      doubleDecisions.push(`${o.approvalId}: answered created, nothing logged`);

  const unexpectedAnswers = ops.flatMap((o) =>
    expected(o) ? [] : [`${o.phase} ${o.kind}${o.key ? ` ${o.key}` : ""}: ${o.status} ${o.code ?? ""}`],
  );
  // A refusal is only a refusal when its cause already happened: "not found" for a call issued
  // after a start was answered, or "ended" for one answered before any cancel was issued, is a lost update.
  const firstStarted = Math.min(...ops.filter((o) => o.kind === "start" && o.status < 300).map((o) => o.answeredAt ?? Infinity));
  const firstCancel = Math.min(...ops.filter((o) => o.kind === "cancel").map((o) => o.issuedAt ?? Infinity));
  for (const o of ops) {
    if (o.status === 404 && (o.issuedAt ?? 0) > firstStarted) lostUpdates.push(`${o.kind} issued after the start answered got 404`);
    if (o.code === "run_ended" && (o.answeredAt ?? 0) < firstCancel)
      lostUpdates.push(`${o.kind} answered run_ended before any cancel was issued`);
  }

  return {
    operations: ops.length,
    acceptedTriggers: acceptedIds.size,
    coalescedRetries: accepted.length - acceptedIds.size,
    decisions: ops.filter((o) => o.kind === "decide").length,
    lostUpdates,
    duplicateQueued,
    splitKeys,
    doubleStarts,
    afterCancel,
    seqGaps,
    doubleDispatch,
    doubleDecisions,
    unexpectedAnswers,
  };
}

const LOGGED_AS = { approve: "approved", deny: "denied" } as const;

/** The answers a call may get in a race; anything else (a 5xx above all) is a finding. */
function expected(o: Op): boolean {
  if (o.status >= 500) return false;
  switch (o.kind) {
    case "start":
      return o.status === 200 || o.status === 202;
    case "trigger":
      // 404 only while the burst's start has not yet created the run; 409 once it has ended.
      return (
        o.status === 200 || o.status === 202 || (o.status === 409 && o.code === "run_ended") || (o.status === 404 && o.phase === "burst")
      );
    case "cancel":
      return o.status === 200 || (o.status === 404 && o.phase === "burst");
    case "decide":
      return o.status === 200 || (o.status === 409 && ["approval_already_decided", "run_ended"].includes(o.code ?? ""));
    case "read":
      return o.status === 200 || (o.status === 404 && o.phase === "burst");
  }
}
