/** The guard module every instrumented module imports; user files may not use the name. */
export const LOOP_GUARD_MODULE = "__little_guard.js";
/** The function the instrumentation calls when the countdown runs out. */
export const LOOP_GUARD_TICK = "__little_tick";
/** The countdown object (`{ n }`) the instrumentation decrements at every loop body and function entry. */
export const LOOP_GUARD_BUDGET = "__little_budget";
/** The name of the error the guard throws; the host recognises it in an isolate's start-up failure. */
export const LOOP_GUARD_ERROR = "LittleCodeTimeout";

/**
 * The loop guard, evaluated in the isolate before any user module (the runner imports it first,
 * and user modules import it, so ES module order evaluates it before them).
 *
 * Why: local workerd enforces no CPU limit and runs all isolates on one thread, so user code that
 * never yields freezes `wrangler dev` (every later request hangs). Instrumented code runs
 * `if (--__little_budget.n < 0) __little_tick()` at every loop body and function entry, so every
 * 64th one reads the clock (`Date.now()` costs ~115 ns in workerd: measured). A trip sets the
 * countdown below zero for good, so every later tick calls the guard, which throws again.
 *
 * - **Busy time** is measured from the first check after the thread last got back to the event
 *   loop. The evidence that it did is a heartbeat timer (`setTimeout(…, 0)`, the real one captured
 *   here, before the runners wrap timers) that resets the measurement when it fires; it cannot fire
 *   while the code spins, also not in a loop of resolved awaits (`for (;;) await null`: microtasks
 *   starve timers). Over `cpuMs` the guard trips.
 * - **Wall time**: past the latest call's deadline (`wallMs` after it started) the guard trips.
 * - **Module top level**: workerd's clock reads 0 and does not move while a module is evaluated
 *   (checked), and timers are refused there, so the guard counts instead: 2^28 ticks of top-level
 *   code (about 1 s of an empty loop; Cloudflare's start-up CPU limit is of that order) trip it.
 * - Tripping is **sticky** until the next call arms the guard: every later tick throws again, so
 *   a `try { … } catch {}` around a loop cannot swallow it and spin on.
 *
 * In production Date.now() does not advance during synchronous execution (Spectre mitigation), so
 * the busy check never trips there; the platform's CPU limit stops the isolate instead. A timer
 * scheduled during a call is cancelled when the call returns (checked), so `release()` at the end of
 * every call forgets the heartbeat instead of waiting for one that will never fire.
 *
 * This keeps the local Worker answering; it is not a security boundary: code that imports this
 * module itself can call `arm` (on Cloudflare the CPU limit still applies).
 */
export const LOOP_GUARD_SOURCE = `const now = Date.now;
const schedule = globalThis.setTimeout.bind(globalThis);
const EVERY = 64;
const TOP_LEVEL_CHECKS = 1 << 22;
let cpuMs = 5000;
let wallMs = 30000;
let deadline = 0;
let runStart = -1;
export const ${LOOP_GUARD_BUDGET} = { n: EVERY };
let topLevelChecks = 0;
let tripped = "";
export class ${LOOP_GUARD_ERROR} extends Error {
  constructor(message) { super(message); this.name = "${LOOP_GUARD_ERROR}"; }
}
function beat() { runStart = -1; }
function trip(reason) {
  tripped = reason;
  ${LOOP_GUARD_BUDGET}.n = -1;
  throw new ${LOOP_GUARD_ERROR}(reason);
}
function check() {
  if (tripped) { ${LOOP_GUARD_BUDGET}.n = -1; throw new ${LOOP_GUARD_ERROR}(tripped); }
  ${LOOP_GUARD_BUDGET}.n = EVERY;
  const t = now();
  if (t === 0) {
    if (++topLevelChecks > TOP_LEVEL_CHECKS) trip("the code ran more than " + TOP_LEVEL_CHECKS * EVERY + " loop iterations or calls at the top level of a module (the sandbox's CPU guard)");
    return;
  }
  if (runStart < 0) {
    runStart = t;
    try { schedule(beat, 0); } catch {}
  } else if (t - runStart > cpuMs) {
    trip("the code ran " + (t - runStart) + " ms without yielding; its CPU limit is " + cpuMs + " ms (stopped by the sandbox's CPU guard)");
  }
  if (t > deadline) trip("the code ran longer than its " + wallMs + " ms wall-time limit (stopped by the sandbox's CPU guard)");
}
export function ${LOOP_GUARD_TICK}() { check(); }
/** Starts a call: its limits, a fresh measurement, the trip cleared. */
export function arm(limits) {
  cpuMs = limits.cpuMs;
  wallMs = limits.wallMs;
  deadline = Math.max(deadline, now() + limits.wallMs);
  runStart = -1;
  ${LOOP_GUARD_BUDGET}.n = EVERY;
  tripped = "";
}
/** Ends a call: its heartbeat timer is cancelled with it, so forget it. */
export function release() { runStart = -1; }
/** Why the guard stopped the code ("" when it did not). */
export function trippedReason() { return tripped; }
`;
