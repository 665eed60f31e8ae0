import type { Run, RunLinks } from "../client/index.ts";
import { keyValues, type Paint, statusFormat } from "./output.ts";

/** A run for humans: status, ids, output or cause, usage and links, as aligned label/value lines. */
export function renderRun(run: Run, links: RunLinks | undefined, paint: Paint): string {
  const linkLines = links
    ? Object.entries(links)
        .filter((entry): entry is [string, string] => typeof entry[1] === "string")
        .map(([name, url]) => `${name.padEnd(6)}  ${url}`)
    : [];
  const cause = run.cause ? `${paint("red", run.cause.code)}: ${run.cause.message}` : undefined;
  return keyValues(
    [
      ["status", paint(statusFormat(run.status), run.waitReason ? `${run.status} (${run.waitReason})` : run.status)],
      ["waits until", run.waitingUntil !== undefined ? new Date(run.waitingUntil).toISOString() : undefined],
      ["awaits", run.awaitingSignals?.length ? run.awaitingSignals.map((s) => `${s.name} (${s.stepPath})`).join(", ") : undefined],
      ["queued", run.queue ? `${run.queue.kind} key ${run.queue.key}, position ${run.queue.position ?? "?"}` : undefined],
      [
        "rate limited",
        run.rateLimited?.length
          ? run.rateLimited.map((r) => `${r.stepPath} on ${r.providerId}/${r.modelId} until ${new Date(r.until).toISOString()}`).join("\n")
          : undefined,
      ],
      ["run id", run.runId],
      ["workflow", run.workflowId ?? undefined],
      ["version id", run.versionId ?? "-"],
      ["trace id", run.traceId],
      ["output", run.output !== undefined && run.output !== null ? JSON.stringify(run.output, null, 2) : undefined],
      ["cause", cause],
      ["parent", run.parent ? `${run.parent.runId} (step ${run.parent.stepPath})` : undefined],
      [
        "children",
        run.children && run.children.length > 0
          ? run.children
              .map(
                (c) =>
                  `${c.runId}  ${c.workflowId}  ${paint(statusFormat(c.status), c.status)}  step ${c.stepPath}${c.attempt > 1 ? ` attempt ${c.attempt}` : ""}${c.cause ? `  ${c.cause.code}` : ""}`,
              )
              .join("\n")
          : undefined,
      ],
      ["details", run.cause?.details !== undefined ? JSON.stringify(run.cause.details, null, 2) : undefined],
      ["usage", run.usage ? `${run.usage.inputTokens} in + ${run.usage.outputTokens} out = ${run.usage.totalTokens} tokens` : undefined],
      ["events", typeof run.eventCount === "number" ? String(run.eventCount) : undefined],
      ["links", linkLines.length > 0 ? linkLines.join("\n") : undefined],
    ],
    paint,
  );
}
