import { splitSseMessages } from "../sse.ts";

// The page's calls to the /v1 API. The session cookie authenticates them (same origin, sent by
// the browser); a 401 means the session is gone, so the page goes back to the login form.

export class ApiCallError extends Error {
  constructor(status, code, message) {
    super(message);
    this.name = "ApiCallError";
    this.status = status;
    this.code = code;
  }
}

function toLogin() {
  location.assign(`/login?next=${encodeURIComponent(location.pathname + location.search)}`);
}

/** GET a JSON route; throws ApiCallError with the API's error code on a non-2xx answer. */
export async function getJson(path) {
  const res = await fetch(path, { credentials: "same-origin", headers: { accept: "application/json" } });
  if (res.status === 401) toLogin();
  const body = await res.json().catch(() => null);
  if (!res.ok) throw new ApiCallError(res.status, body?.error?.code ?? "http_error", body?.error?.message ?? `HTTP ${res.status}`);
  return body;
}

/** POST JSON to a route (the session cookie authenticates it, same origin); throws ApiCallError like getJson. */
export async function postJson(path, body) {
  const res = await fetch(path, {
    method: "POST",
    credentials: "same-origin",
    headers: { accept: "application/json", "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (res.status === 401) toLogin();
  const answer = await res.json().catch(() => null);
  if (!res.ok) throw new ApiCallError(res.status, answer?.error?.code ?? "http_error", answer?.error?.message ?? `HTTP ${res.status}`);
  return answer;
}

/**
 * Reads a run's SSE stream from `after`, calling `onEvents` with each batch of parsed events.
 * fetch (rather than EventSource) so that every event type arrives, named or not, and so that a
 * 401 or 404 is seen as such. Resolves when the server ends the stream. With `onDelta` it reads
 * `GET /v1/runs/:id/stream` instead, whose `delta` messages (live model output) go to `onDelta`.
 */
export async function readEventStream(runId, after, onEvents, signal, onDelta) {
  const path = onDelta ? "stream" : "events/stream";
  const res = await fetch(`/v1/runs/${encodeURIComponent(runId)}/${path}?after=${after}`, {
    credentials: "same-origin",
    headers: { accept: "text/event-stream" },
    signal,
  });
  if (res.status === 401) toLogin();
  if (!res.ok || !res.body) {
    const body = await res.json().catch(() => null);
    throw new ApiCallError(res.status, body?.error?.code ?? "http_error", body?.error?.message ?? `HTTP ${res.status}`);
  }
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    const { messages, rest } = splitSseMessages(buffer + value);
    buffer = rest;
    const events = [];
    for (const message of messages) {
      if (message.event !== "delta") events.push(JSON.parse(message.data));
      else {
        if (events.length > 0) onEvents(events.splice(0));
        onDelta?.(JSON.parse(message.data));
      }
    }
    if (events.length > 0) onEvents(events);
  }
}
