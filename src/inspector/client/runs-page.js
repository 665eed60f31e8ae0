import { isEndedStatus } from "../../ports/run-status.ts";
import { getJson } from "./api.js";
import { h, replace } from "./dom.js";
import { fmtDuration, fmtTime } from "./format.js";

const PAGE_SIZE = 50;
/** Token totals come from each run's own record: a few at a time, so a long list stays light. */
const USAGE_CONCURRENCY = 4;

/**
 * A run's tokens as its page counts them: the run's usage once it completed, else the sum over the
 * model answers so far (a failed, waiting or running run has no usage of its own yet).
 */
async function tokensOf(runId) {
  const id = encodeURIComponent(runId);
  const { run } = await getJson(`/v1/runs/${id}`);
  if (run.usage) return run.usage.totalTokens;
  let total = 0;
  let answered = 0;
  for (let after = 0; ; ) {
    const page = await getJson(`/v1/runs/${id}/events?type=harness.model.responded&limit=1000&after=${after}`);
    for (const e of page.events) {
      total += (e.payload.usage?.inputTokens ?? 0) + (e.payload.usage?.outputTokens ?? 0);
      answered++;
    }
    if (page.events.length < 1000 || page.nextAfter == null) break;
    after = page.nextAfter;
  }
  return answered > 0 ? total : null;
}

/** The run list: filters from the query string, newest first, a page at a time. */
export async function runsPage() {
  const tbody = document.querySelector("#runs-table tbody");
  const state = document.getElementById("runs-state");
  const more = document.getElementById("more");
  const params = new URLSearchParams(location.search);
  const usageQueue = [];
  let usageWorkers = 0;
  let shown = 0;

  const pumpUsage = () => {
    while (usageWorkers < USAGE_CONCURRENCY && usageQueue.length > 0) {
      const [runId, cell] = usageQueue.shift();
      usageWorkers++;
      tokensOf(runId)
        .then((total) => {
          cell.textContent = total === null ? "—" : String(total);
        })
        .catch(() => {
          cell.textContent = "?";
        })
        .finally(() => {
          usageWorkers--;
          pumpUsage();
        });
    }
  };

  const load = async (cursor) => {
    const query = new URLSearchParams({ limit: String(PAGE_SIZE) });
    for (const name of ["workflow", "status", "waitReason"]) if (params.get(name)) query.set(name, params.get(name));
    if (cursor) query.set("cursor", cursor);
    more.hidden = true;
    let body;
    try {
      body = await getJson(`/v1/runs?${query}`);
    } catch (error) {
      replace(state, h("span", { class: "error", role: "alert" }, `Could not list runs: ${error.message}`));
      return;
    }
    for (const run of body.runs) {
      const tokens = h("td", { class: "tokens" }, "…");
      const duration = isEndedStatus(run.status) ? fmtDuration(run.updatedAt - run.createdAt) : "running";
      tbody.append(
        h(
          "tr",
          { "data-run-id": run.runId },
          h("td", {}, h("a", { href: `/runs/${encodeURIComponent(run.runId)}` }, run.runId)),
          h("td", {}, run.workflowId),
          h(
            "td",
            {},
            h("span", { class: `badge status-${run.status}` }, run.status),
            run.waitReason ? ` ${run.waitReason}` : "",
            run.causeCode ? ` ${run.causeCode}` : "",
          ),
          h("td", {}, fmtTime(run.createdAt)),
          h("td", {}, duration),
          h("td", {}, run.versionId ? h("code", {}, run.versionId) : "—"),
          tokens,
        ),
      );
      usageQueue.push([run.runId, tokens]);
    }
    shown += body.runs.length;
    pumpUsage();
    state.textContent = shown === 0 ? "No runs match." : `${shown} run${shown === 1 ? "" : "s"} shown, newest first.`;
    if (body.nextCursor) {
      more.hidden = false;
      more.onclick = () => load(body.nextCursor);
    }
  };

  await load(null);
}
