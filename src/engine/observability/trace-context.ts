/**
 * @module Trace and span ids of a run, derived from the log so that a crash, an eviction or a
 * replay gives the same ids (docs/observability.md), and the W3C `traceparent` a start may carry.
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";

/** A caller's span context, parsed from a W3C `traceparent` header (version 00). */
export type TraceParent = { readonly traceId: string; readonly spanId: string; readonly sampled: boolean };

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;

/**
 * Parses a `traceparent`; null when it is malformed or all-zero (the W3C rule: ignore it, start a
 * new trace). A version other than 00 is read by its 00 fields, as the spec asks.
 *
 * @example
 * parseTraceparent("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")?.traceId // "4bf9…4736"
 */
export function parseTraceparent(header: string | null | undefined): TraceParent | null {
  if (typeof header !== "string") return null;
  const match = TRACEPARENT.exec(header.trim().toLowerCase());
  if (!match) return null;
  const [, version, traceId, spanId, flags, rest] = match as unknown as [string, string, string, string, string, string | undefined];
  if (version === "ff" || (version === "00" && rest !== undefined)) return null;
  if (/^0+$/.test(traceId) || /^0+$/.test(spanId)) return null;
  return { traceId, spanId, sampled: (Number.parseInt(flags, 16) & 1) === 1 };
}

/** The header form of a parsed `traceparent` (what `RunRequested.traceparent` records). */
export function formatTraceparent(parent: TraceParent): string {
  return `00-${parent.traceId}-${parent.spanId}-${parent.sampled ? "01" : "00"}`;
}

function hexOf(text: string, length: number): string {
  return bytesToHex(sha256(utf8ToBytes(text))).slice(0, length);
}

/** The run's trace id: the caller's when the start carried a `traceparent`, else one derived from the run id. */
export function traceIdOf(runId: string, parent: TraceParent | null): string {
  return parent?.traceId ?? hexOf(`little-trace:${runId}`, 32);
}

/** The id of the span a log position opened: the same for the same run and seq, always. */
export function spanIdOf(runId: string, seq: number, discriminator = ""): string {
  return hexOf(`little-span:${runId}:${seq}${discriminator ? `:${discriminator}` : ""}`, 16);
}
