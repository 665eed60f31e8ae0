import { call } from "../../../api/support/api-call.ts";

/**
 * Everything the API serves about a run: the run, its version, every events page, the SSE stream (which ends
 * after the terminal event, so only for ended runs) and the approvals list.
 */
export async function servedFor(runId: string, token: string, ended: boolean): Promise<string[]> {
  const run = await call("GET", `/v1/runs/${runId}`, { token });
  const texts = [run.text];
  const versionId = (run.json.run as { versionId?: string } | undefined)?.versionId;
  if (versionId) texts.push((await call("GET", `/v1/versions/${versionId}`, { token })).text);
  for (let after = 0; ; ) {
    const page = await call("GET", `/v1/runs/${runId}/events?after=${after}&limit=50`, { token });
    texts.push(page.text);
    const events = (page.json.events ?? []) as { seq: number }[];
    if (events.length < 50) break;
    after = (events.at(-1) as { seq: number }).seq;
  }
  if (ended) texts.push((await call("GET", `/v1/runs/${runId}/events/stream`, { token })).text);
  texts.push((await call("GET", `/v1/runs/${runId}/approvals`, { token })).text);
  return texts;
}
