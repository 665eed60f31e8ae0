import { isEndedStatus } from "../../ports/run-status.ts";
import { applyRunEvent, emptyRunView } from "../run-view.ts";
import { durationOf, TimelineBuilder } from "../timeline.ts";
import { getJson, readEventStream } from "./api.js";
import { drawDag, layoutOfLwir, updateDag } from "./dag-view.js";
import { renderDetails } from "./details-view.js";
import { h, replace } from "./dom.js";
import { renderForkActions } from "./fork-actions.js";
import { fmtCost, fmtDuration, fmtJson, fmtTime, fmtTokens } from "./format.js";
import { applyDelta, liveOutputState, renderLiveOutput, settleCalls } from "./live-output-view.js";
import { renderActions, tagsAndProgress } from "./run-actions.js";
import { familyItems, queueLabel } from "./run-relations.js";
import { renderCycles, renderOccurrences } from "./run-tables.js";
import { renderWaits } from "./wait-view.js";

const STATUSES = ["pending", "scheduled", "running", "waiting", "retrying", "succeeded", "failed", "skipped", "stopped"];
const RECONNECT_MS = [500, 1000, 2000, 5000];
const VERSION_RETRY_MS = [200, 500, 1000, 2000, 4000, 8000];

/** The run page: one SSE stream from seq 0 replays the log, then keeps the page live until the run ends. */
export async function runPage(runId) {
  const $ = (id) => document.getElementById(id);
  const page = {
    runId,
    run: null,
    view: emptyRunView(),
    timeline: new TimelineBuilder(),
    version: null,
    versionLoading: null,
    lwirSteps: new Map(),
    selected: null,
    liveCalls: liveOutputState(),
  };
  let renderQueued = false;

  const select = (stepId) => {
    page.selected = stepId;
    render();
    $("details").focus({ preventScroll: false });
  };

  replace(
    $("legend"),
    STATUSES.map((x) => h("li", {}, h("span", { class: `badge status-${x}` }, x))),
  );

  const render = () => {
    renderQueued = false;
    renderPage(page);
  };
  const queueRender = () => {
    if (renderQueued) return;
    renderQueued = true;
    setTimeout(render, 30);
  };

  const onEvents = (batch) => {
    for (const event of batch) {
      if (event.seq <= page.view.lastSeq) continue;
      page.timeline.add(event);
      applyRunEvent(page.view, event);
    }
    settleCalls(page.liveCalls, batch);
    if (page.view.versionId && page.version?.id !== page.view.versionId) void loadVersion(page, page.view.versionId, select, queueRender);
    queueRender();
  };

  try {
    page.run = (await getJson(`/v1/runs/${encodeURIComponent(runId)}`)).run;
  } catch (error) {
    replace($("live-state"), h("span", { class: "error", role: "alert" }, `Could not load the run: ${error.message}`));
    return;
  }
  render();

  const onDelta = (delta) => {
    applyDelta(page.liveCalls, delta);
    queueRender();
  };
  if (!(await followRun(page, runId, onEvents, onDelta, queueRender))) return;
  page.connection = "ended";
  render();
}

/** Draws everything from the page's state (the DAG and the details only where they changed). */
function renderPage(page) {
  const $ = (id) => document.getElementById(id);
  const { view } = page;
  renderSummary($("summary-list"), $("live-state"), page);
  renderActions($("actions"), $("actions-body"), view, page.runId, page);
  renderWaits($("waits"), $("waits-body"), view, page.runId, page);
  renderForkActions($("fork-actions"), page);
  renderLiveOutput($("live-output"), $("live-output-body"), page.liveCalls);
  $("run-input-body").textContent = fmtJson(view.input);
  renderResult($("result"), $("result-body"), view);
  renderCycles($("cycles"), $("cycles-body"), view);
  renderOccurrences($("occurrences"), $("occurrences-body"), view);
  if (page.version) updateDag($("dag"), view, page.selected);
  // Redrawn only when the selected step changed: a redraw would close the tool calls a reader opened.
  const detailsKey = page.selected
    ? JSON.stringify([page.selected, page.lwirSteps.has(page.selected), view.steps[page.selected] ?? null])
    : null;
  if (detailsKey !== page.detailsKey) {
    page.detailsKey = detailsKey;
    if (page.selected) {
      const outputs = Object.fromEntries(Object.entries(view.steps).map(([id, step]) => [id, step.output]));
      const scope = { input: view.input, steps: outputs };
      renderDetails(
        $("details-body"),
        page.selected,
        page.lwirSteps.get(page.selected),
        view.steps[page.selected],
        view.requestedAt,
        scope,
      );
    }
  }
  renderTimeline($("timeline"), page.timeline.entries, view);
}

// The event naming a version can arrive before the run index links the run to it (the index is
// written just after), and until then the version route answers 404: try again a few times.
async function loadVersion(page, versionId, select, queueRender) {
  const $ = (id) => document.getElementById(id);
  if (page.version?.id === versionId || page.versionLoading === versionId) return;
  page.versionLoading = versionId;
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        const body = await getJson(`/v1/versions/${encodeURIComponent(versionId)}`);
        page.version = body.version;
        page.lwirSteps = new Map((body.version.lwir?.steps ?? []).map((step) => [step.id, step]));
        drawDag($("dag"), layoutOfLwir(body.version.lwir), select);
        renderVersion($("version-body"), body, page.view);
        queueRender();
        return;
      } catch (error) {
        if (attempt + 1 >= VERSION_RETRY_MS.length) {
          replace($("version-body"), h("p", { class: "error", role: "alert" }, `Could not load version ${versionId}: ${error.message}`));
          return;
        }
        await new Promise((done) => setTimeout(done, VERSION_RETRY_MS[attempt]));
      }
    }
  } finally {
    page.versionLoading = null;
  }
}

/** Reads the run's event stream until the run ends, reconnecting after the last seq when it breaks. */
async function followRun(page, runId, onEvents, onDelta, queueRender) {
  const $ = (id) => document.getElementById(id);
  // The stream ends after the terminal event; if it breaks before that, resume after the last seq.
  for (let failures = 0; !isEndedStatus(page.view.status); ) {
    page.connection = "live";
    try {
      await readEventStream(runId, page.view.lastSeq, onEvents, undefined, onDelta);
      failures = 0;
    } catch (error) {
      if (error?.status === 404 || error?.status === 401) {
        replace($("live-state"), h("span", { class: "error", role: "alert" }, error.message));
        return false;
      }
      failures++;
    }
    if (isEndedStatus(page.view.status)) break;
    page.connection = "reconnecting";
    queueRender();
    await new Promise((done) => setTimeout(done, RECONNECT_MS[Math.min(failures, RECONNECT_MS.length - 1)]));
    // Refresh the run's record too (like any client reading it, this also wakes its object).
    page.run = (await getJson(`/v1/runs/${encodeURIComponent(runId)}`).catch(() => null))?.run ?? page.run;
  }
  return true;
}

/** What a waiting run waits for, by wait reason (ports/run-status.ts). */
const WAIT_LABELS = {
  approval: "an approval",
  sleep: "a sleep or a retry's backoff",
  trigger: "the section's next trigger",
  signal: "a signal",
  child: "a child run",
  concurrency: "a slot of its concurrency key",
  throttle: "its throttle window",
  rate_limit: "its model's rate limit",
};

/** The tenant's start quotas queue a run too (`queue.scope` `tenant`): not a key of the workflow's. */
const TENANT_WAIT_LABELS = {
  concurrency: "a slot of the tenant's concurrent-runs quota",
  throttle: "the tenant's starts-per-minute quota",
};

function waitLabel(view) {
  const tenantQueued = view.state.flow?.queued?.scope === "tenant";
  return (tenantQueued ? TENANT_WAIT_LABELS[view.waitReason] : undefined) ?? WAIT_LABELS[view.waitReason] ?? view.waitReason;
}

function renderSummary(list, live, page) {
  const { view, run } = page;
  const started = view.requestedAt ?? run?.createdAt ?? null;
  const ended = view.endedAt;
  const item = (term, ...value) => h("div", {}, h("dt", {}, term), h("dd", {}, ...value));
  replace(
    list,
    item(
      "Status",
      h(
        "span",
        { class: `badge status-${view.status}`, id: "run-status", "data-status": view.status, "data-wait-reason": view.waitReason ?? "" },
        view.status,
      ),
      view.waitReason ? h("span", { id: "wait-reason" }, ` for ${waitLabel(view)}`) : null,
      queueLabel(view, run),
    ),
    // Never let a fake answer pass for a real one: LITTLE_MODELS=auto fell back (or runs offline).
    view.offlineModels.length > 0
      ? item(
          "Models",
          h(
            "span",
            { class: "badge offline-model", id: "offline-badge", title: "Answered by the deterministic offline model, not a provider" },
            "offline model",
          ),
          ` ${view.offlineModels.join(", ")}`,
        )
      : null,
    item("Workflow", view.workflowId ?? run?.workflowId ?? "—"),
    tagsAndProgress(view, item),
    ...familyItems(view, item),
    item("Started", fmtTime(started)),
    item("Duration", ended !== null && started !== null ? fmtDuration(ended - started) : started !== null ? "running" : "—"),
    view.occurrence ? item("Occurrence", `${view.occurrence} of ${view.occurrences.length}`) : null,
    view.cycles.length > 0 ? item("Cycle", String(view.cycle)) : null,
    item("Version", view.versionId ? h("a", { href: "#version" }, view.versionId) : "—"),
    // Which trace to open in the tracing backend (docs/observability.md).
    run?.traceId ? item("Trace", h("code", { id: "trace-id" }, run.traceId)) : null,
    item("Tokens", fmtTokens(view.usage)),
    item("Cost", fmtCost(view.usage)),
    item("Events", String(view.lastSeq)),
  );
  live.textContent =
    page.connection === "reconnecting"
      ? "Connection lost; reconnecting…"
      : isEndedStatus(view.status)
        ? `Run ${view.status}.`
        : view.status === "paused"
          ? "Paused: no new step or model call starts until it is resumed."
          : view.status === "waiting"
            ? `Live: waiting for ${WAIT_LABELS[view.waitReason] ?? "something"}.`
            : page.connection === "live"
              ? "Live: following the run as it executes."
              : "Loading…";
}

function renderResult(section, body, view) {
  if (!isEndedStatus(view.status)) {
    section.hidden = true;
    return;
  }
  section.hidden = false;
  if (view.status === "completed") {
    replace(body, h("h3", {}, "Output"), h("pre", { id: "run-output" }, fmtJson(view.output)));
  } else if (view.status === "failed" && view.failure) {
    replace(
      body,
      h(
        "div",
        { class: "cause", id: "run-cause", role: "alert" },
        h("p", {}, h("strong", {}, "Failed: "), h("code", { id: "cause-code" }, view.failure.causeCode)),
        h("p", { id: "cause-message" }, view.failure.message),
      ),
      view.failure.details !== undefined ? [h("h3", {}, "Details"), h("pre", {}, fmtJson(view.failure.details))] : null,
    );
  } else {
    replace(body, h("p", { class: "cause", id: "run-cause" }, `Cancelled: ${view.cancelReason ?? "no reason given"}`));
  }
}

function renderTimeline(list, entries, view) {
  const start = view.requestedAt ?? entries[0]?.startedAt ?? 0;
  // A live run's axis runs to now (or to the last event, should this machine's clock lag the server's).
  const lastAt = Math.max(start, ...entries.map((e) => e.endedAt ?? e.startedAt));
  const total = Math.max(1, (view.endedAt ?? Math.max(Date.now(), lastAt)) - start);
  replace(
    list,
    entries.map((e) => {
      const took = durationOf(e);
      const bar = h("span", { class: "bar" });
      // Placed on the run's time axis: where it began, and how long it took (so far).
      const left = Math.min(100, Math.max(0, ((e.startedAt - start) / total) * 100));
      bar.style.marginLeft = `${left}%`;
      bar.style.width = `${Math.min(100 - left, ((took ?? start + total - e.startedAt) / total) * 100)}%`;
      return h(
        "li",
        { class: `outcome-${e.outcome}`, "data-kind": e.kind },
        h("span", { class: "at" }, `+${fmtDuration(e.startedAt - start)}`),
        h("span", { class: "kind" }, e.kind),
        h("span", { class: "what" }, e.label, e.detail ? h("span", { class: "detail" }, e.detail) : null, bar),
        h("span", { class: "dur" }, took === null ? "running" : e.endedAt === e.startedAt ? "" : fmtDuration(took)),
      );
    }),
  );
}

function renderVersion(body, answer, view) {
  const { version, locks } = answer;
  const definitionHash = view.version?.definitionHash ?? null;
  replace(
    body,
    h(
      "dl",
      { class: "kv" },
      h("dt", {}, "Version id"),
      h("dd", {}, h("code", { id: "version-id" }, version.id)),
      h("dt", {}, "Version hash"),
      h("dd", {}, h("code", {}, version.hash)),
      h("dt", {}, "Canonicalizer"),
      h("dd", {}, version.canonicalizer ?? "—"),
      view.version ? [h("dt", {}, "Lock hash"), h("dd", {}, h("code", {}, view.version.lockHash))] : null,
      h("dt", {}, "Definition"),
      h(
        "dd",
        {},
        definitionHash
          ? h("a", { id: "definition-link", href: `/v1/definitions/${encodeURIComponent(definitionHash)}` }, definitionHash)
          : "—",
      ),
    ),
    h("details", {}, h("summary", {}, "Locks"), h("pre", {}, fmtJson(locks))),
    h("details", {}, h("summary", {}, "LWIR"), h("pre", { id: "lwir" }, JSON.stringify(version.lwir, null, 2))),
  );
}
