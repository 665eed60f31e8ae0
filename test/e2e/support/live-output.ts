/**
 * Helpers for live model output (`GET /v1/runs/:id/stream`): a worker answer streamed by the fake
 * provider in paced chunks, and a reader of the stream that stamps each message with when it
 * arrived. Shared by the e2e test and the delta-latency benchmark.
 */
import { createClient, type ModelDelta, type RunStreamItem } from "../../../src/client/index.ts";
import type { FakeTurn } from "./fake-provider.ts";

/** A structured worker answer whose JSON text streams in `count` chunks, `delayMs` apart. */
export function pacedJsonTurn(value: unknown, count = 50, delayMs = 20): FakeTurn & { readonly text: string } {
  const text = JSON.stringify(value);
  const cut = (i: number) => Math.floor((i * text.length) / count);
  const chunks = Array.from({ length: count }, (_, i) => text.slice(cut(i), cut(i + 1))).filter((c) => c.length > 0);
  if (chunks.length !== count) throw new Error(`the answer (${text.length} characters) is too short for ${count} chunks`);
  return { kind: "json", value, usage: { input: 300, output: 80 }, paced: { chunks, delayMs }, text };
}

/** A summary long enough to split into 50 chunks of a few characters each. */
export function longSummary(tag: string): { summary: string; severity: string } {
  return {
    summary: `${tag}: the dashboard answers 500 on every page since the upgrade to 4.2; the logs point at the new session store, which refuses connections under load.`,
    severity: "high",
  };
}

export type Stamped = RunStreamItem & { readonly receivedAt: number };

/** Reads `streamRun` to its end with the typed client, stamping each item with its arrival time. */
export async function readRunStream(base: string, token: string, runId: string, options: { after?: number } = {}): Promise<Stamped[]> {
  const client = createClient({ baseUrl: base, token });
  const items: Stamped[] = [];
  for await (const item of client.streamRun(runId, options)) items.push({ ...item, receivedAt: Date.now() });
  return items;
}

/** Each call's text per channel, built from deltas as a client must: `whole.slice(0, offset) + text`. */
export function wholeTexts(deltas: readonly ModelDelta[]): Map<string, string> {
  const texts = new Map<string, string>();
  for (const d of deltas) {
    const key = `${d.callId} ${d.channel}`;
    texts.set(key, (texts.get(key) ?? "").slice(0, d.offset) + d.text);
  }
  return texts;
}

export const deltasOf = (items: readonly Stamped[]): (ModelDelta & { receivedAt: number })[] =>
  items.flatMap((i) => (i.type === "delta" ? [{ ...i.delta, receivedAt: i.receivedAt }] : []));

/** The text of a recorded answer (`harness.model.responded.response.content`), joined. */
export function recordedText(response: unknown): string {
  const content = (response as { content?: { type: string; text?: string }[] } | null)?.content ?? [];
  return content
    .filter((c) => c.type === "text")
    .map((c) => c.text ?? "")
    .join("");
}
