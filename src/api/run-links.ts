/** Links a client follows from a run. */
export function runLinks(origin: string, runId: string) {
  const self = `${origin}/v1/runs/${encodeURIComponent(runId)}`;
  return { self, events: `${self}/events`, stream: `${self}/events/stream` };
}
