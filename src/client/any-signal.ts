/**
 * A signal that aborts when the first of `signals` aborts, with that signal's reason:
 * `AbortSignal.any` where the runtime has it (workerd, browsers, Node >= 20.3), else the same by
 * hand, so the client runs on every Node the package's `engines` (>= 20) allows.
 *
 * @example
 * fetch(url, { signal: anySignal([callerSignal, AbortSignal.timeout(30_000)]) });
 */
export function anySignal(signals: readonly AbortSignal[]): AbortSignal {
  if (typeof AbortSignal.any === "function") return AbortSignal.any([...signals]);
  const controller = new AbortController();
  const aborted = signals.find((signal) => signal.aborted);
  if (aborted) {
    controller.abort(aborted.reason);
    return controller.signal;
  }
  // Listeners come off every input once one fires, so a long-lived caller signal keeps no
  // reference to a finished request's controller beyond the first abort (a timeout at the latest).
  const onAbort = (event: Event) => {
    for (const signal of signals) signal.removeEventListener("abort", onAbort);
    controller.abort((event.target as AbortSignal).reason);
  };
  for (const signal of signals) signal.addEventListener("abort", onAbort);
  return controller.signal;
}
