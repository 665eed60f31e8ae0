import type { Clock } from "../../ports/clock.ts";
import type { EventLog } from "../../ports/event-log.ts";
import type { RunIndex } from "../../ports/run-index.ts";
import type { RunEnvironment, RunWiring } from "../run-environment.ts";
import { runTextRedactor, type TextRedactor } from "../run-redactor.ts";
import type { DriveLock } from "./drive-lock.ts";

/**
 * When the host drives the run again (a Durable Object's alarm; nothing in memory, where the
 * caller loops). `wakeIn` counts from the host's own timer, `wakeAt` takes a time read from the
 * run's clock (a slice's `wakeAt`).
 */
export interface RunAlarm {
  wakeIn(delayMs: number): Promise<void>;
  wakeAt(at: number): Promise<void>;
  clear(): Promise<void>;
}

/** An alarm that never fires: for a host that drives in a loop of its own. */
export const noAlarm: RunAlarm = { wakeIn: async () => {}, wakeAt: async () => {}, clear: async () => {} };

/** What the run host's commands work over: one run's log, the run index, the clock and its alarm. */
export type RunHostPorts = {
  readonly runId: string;
  readonly log: EventLog;
  readonly runs: RunIndex;
  readonly clock: Clock;
  readonly alarm: RunAlarm;
  /** For the run's redactor (the secrets its definition binds). */
  readonly workflows: RunEnvironment["workflows"];
  readonly secrets: RunEnvironment["secrets"];
  /** A child run tells its parent it ended, a cancelled parent cancels its children (engine/children/child-messages.ts). */
  readonly children: RunEnvironment["children"];
  /** The run's blobs, for telling a parent a completed child's output stored by reference. */
  readonly blobs?: RunEnvironment["blobs"];
  /**
   * Who drives the run now, when the host has more than one driver (a Durable Object: its alarm
   * and its commands): a command ends a waiting step itself only while it holds it (answer-waiting-step.ts).
   */
  readonly drive?: DriveLock;
};

/** The run host's ports of one run, from its host's wiring (the run object's), its log, index and alarm. */
export function hostPortsOf(
  wiring: Pick<RunWiring, "clock" | "workflows" | "secrets" | "children" | "blobsFor">,
  run: {
    readonly runId: string;
    readonly tenant: string;
    readonly log: EventLog;
    readonly runs: RunIndex;
    readonly alarm: RunAlarm;
    readonly drive?: DriveLock;
  },
): RunHostPorts {
  const { runId, log, runs, alarm } = run;
  const { clock, workflows, secrets, children } = wiring;
  const blobs = wiring.blobsFor({ tenant: run.tenant, runId });
  return { runId, log, runs, clock, alarm, workflows, secrets, children, blobs, ...(run.drive ? { drive: run.drive } : {}) };
}

/** What is written instead of a text that could not be redacted (the run's secrets could not be revealed). */
export const WITHHELD = "(withheld: the run's secrets could not be loaded to redact it)";

/**
 * The run's redactor for text written outside a drive slice (a cancel reason, an approval's
 * reason, a failed slice's error); null (write no such text) when it cannot be built. It needs
 * only the request, the log's first event: one row, not the fold.
 */
export async function textRedactorOf(ports: RunHostPorts): Promise<TextRedactor | null> {
  try {
    const [first] = await ports.log.page({ after: 0, limit: 1 });
    const request = first?.type === "RunRequested" ? first.payload : null;
    return request ? await runTextRedactor(ports, request) : (text) => text;
  } catch {
    return null;
  }
}
