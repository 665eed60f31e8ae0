import type { RunEnvironment } from "./run-environment.ts";
import { deriveRunState, type RunState } from "./run-state.ts";

/** The run's `timeoutMs` as one slice applies it: the deadline, and a signal that fires at it. */
export type RunDeadline = {
  readonly timeoutMs?: number;
  readonly deadline?: number;
  readonly signal?: AbortSignal;
};

/**
 * The run's deadline, from the log (`RunRequested.at` + the definition's `timeoutMs`), so it holds
 * across resumes. For a section, `timeoutMs` bounds only its start — compiling and locking the
 * body — and never its life: a section is meant to wait for triggers for days, and each occurrence
 * has its own bound (`onTrigger.occurrenceTimeoutMs`, run-section.ts). So once the body is locked
 * (a `WorkflowVersionRegistered` in the log) there is no run deadline, and a slice that locks it
 * mid-way is not aborted when the deadline passes afterwards (the log is read when it fires).
 */
export function runDeadlineOf(env: RunEnvironment, state: RunState): RunDeadline {
  const request = state.request;
  const definition = request ? env.workflows.get(request.workflowId)?.definition : undefined;
  const timeoutMs = definition?.timeoutMs;
  if (timeoutMs === undefined) return {};
  const section = definition?.onTrigger != null;
  if (section && state.registered.size > 0) return { timeoutMs };
  const deadline = state.requestedAt + timeoutMs;
  const timer = AbortSignal.timeout(Math.max(0, deadline - env.clock.now()));
  if (!section) return { timeoutMs, deadline, signal: timer };
  const armed = new AbortController();
  timer.addEventListener(
    "abort",
    () => {
      void env.log.all().then(
        (events) => {
          if (deriveRunState(events).registered.size === 0) armed.abort(timer.reason);
        },
        () => armed.abort(timer.reason),
      );
    },
    { once: true },
  );
  return { timeoutMs, deadline, signal: armed.signal };
}
