/**
 * `npm run bench [-- <scenario>…] [--reps N]`: runs the scenarios (all by default) against one
 * bench `wrangler dev`, writes bench/results/<id>.json and refreshes BENCHMARKS.md's tables.
 */
import { burstScenario } from "./burst.ts";
import { childOverhead } from "./child-overhead.ts";
import { codeRun } from "./code-run.ts";
import { coldStart } from "./cold-start.ts";
import { containerSandbox } from "./container-sandbox.ts";
import { deltaLatency } from "./delta-latency.ts";
import { eventLog } from "./event-log.ts";
import { fanOut } from "./fan-out.ts";
import { flowControl } from "./flow-control.ts";
import { fork } from "./fork.ts";
import { globalLatency } from "./global-latency.ts";
import { planOnce } from "./plan-once.ts";
import { replay } from "./replay.ts";
import { stepOverhead } from "./step-overhead.ts";
import { dockerAnswers } from "./support/docker.ts";
import { parseArgs, runScenarios, type Scenario } from "./support/scenario.ts";
import { tracingOverhead } from "./tracing-overhead.ts";
import { triggerThroughput } from "./trigger-throughput.ts";
import { signalRoundTrip, sleepers } from "./waits.ts";

const ALL: readonly Scenario[] = [
  stepOverhead,
  replay,
  fanOut,
  eventLog,
  triggerThroughput,
  burstScenario,
  planOnce,
  codeRun,
  coldStart,
  globalLatency,
  signalRoundTrip,
  sleepers,
  childOverhead,
  flowControl,
  containerSandbox,
  tracingOverhead,
  fork,
  deltaLatency,
];
/** Scenarios a default run (no ids) leaves out, and why: real containers need a Docker engine. */
const NEEDS_DOCKER = new Set([containerSandbox.id]);

const { ids, reps } = parseArgs(process.argv.slice(2));
const unknown = ids.filter((id) => !ALL.some((s) => s.id === id));
if (unknown.length > 0) {
  console.error(`unknown scenario ${unknown.join(", ")}; known: ${ALL.map((s) => s.id).join(", ")}`);
  process.exit(2);
}
const docker = ids.length === 0 && dockerAnswers();
if (ids.length === 0 && !docker) console.log(`no Docker engine answers: leaving out ${[...NEEDS_DOCKER].join(", ")}`);
const chosen = ids.length > 0 ? ALL.filter((s) => ids.includes(s.id)) : ALL.filter((s) => docker || !NEEDS_DOCKER.has(s.id));
const command = `npm run bench${ids.length > 0 || reps !== 5 ? ` -- ${[...ids, ...(reps !== 5 ? [`--reps ${reps}`] : [])].join(" ")}` : ""}`;
const broken = await runScenarios(chosen, { reps, command });
process.exit(broken > 0 ? 1 : 0);
