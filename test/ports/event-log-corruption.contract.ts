import { describe, expect, it } from "vitest";
import type { EventLog } from "../../src/ports/event-log.ts";
import type { StoredEventRow } from "../../src/ports/events/decode-stored-event.ts";
import { EventLogCorruptError } from "../../src/sdk/errors/event-log-corrupt-error.ts";
import { LittleError } from "../../src/sdk/errors/little-error.ts";

/**
 * Gives `body` a fresh log of `runId` and a way to put a row into its storage as it is, past
 * `append` and its types (what a disk fault, a bad migration or a hand edit would leave).
 */
export type WithRawLog = <T>(runId: string, body: (log: EventLog, write: (row: StoredEventRow) => void) => Promise<T>) => Promise<T>;

const AT = 1_700_000_000_000;

/** Rows that must not read as events, each with why. */
const CORRUPT: readonly { name: string; row: Omit<StoredEventRow, "seq">; problem: RegExp }[] = [
  { name: "a payload that is not JSON", row: { type: "StepStarted", at: AT, payload: '{"stepPath":"a",' }, problem: /not JSON/ },
  {
    name: "a type the union lacks",
    row: { type: "StepTeleported", at: AT, payload: '{"stepPath":"a"}' },
    problem: /unknown event type "StepTeleported"/,
  },
  {
    name: "a payload missing a required field",
    row: { type: "StepStarted", at: AT, payload: '{"stepPath":"a"}' },
    problem: /StepStarted payload does not match its schema: attempt/,
  },
  {
    name: "a field of the wrong type",
    row: { type: "RunFailed", at: AT, payload: '{"causeCode":"step_failed","message":42}' },
    problem: /RunFailed payload does not match its schema: message/,
  },
  {
    name: "a cause code no run fails with",
    row: { type: "RunFailed", at: AT, payload: '{"causeCode":"bad_luck","message":"m"}' },
    problem: /causeCode/,
  },
];

function runIdFor(label: string): string {
  return `run_corrupt_${label}_${crypto.randomUUID().replaceAll("-", "")}`;
}

/** What reading rejected with: a named error with its code, run id and seq, or a description of something else. */
async function rejection(read: () => Promise<unknown>): Promise<{ code: string; runId: string; seq: number; message: string } | string> {
  try {
    await read();
    return "no error";
  } catch (error) {
    if (!(error instanceof EventLogCorruptError) || !LittleError.is(error)) return `not EventLogCorruptError: ${String(error)}`;
    return { code: error.code, runId: error.runId, seq: error.seq, message: error.message };
  }
}

/** Every adapter refuses to read a stored row that does not parse as its event, naming its seq. */
export function eventLogCorruptionContract(name: string, withRawLog: WithRawLog): void {
  describe(`EventLog contract, stored rows are checked when read: ${name}`, () => {
    for (const bad of CORRUPT) {
      it(`a row with ${bad.name} is event_log_corrupt with its seq, from all() and from every page that reaches it`, async () => {
        const runId = runIdFor("row");
        const seen = await withRawLog(runId, async (log, write) => {
          await log.append([
            { type: "StepStarted", payload: { stepPath: "a", attempt: 1 } },
            { type: "StepSucceeded", payload: { stepPath: "a", attempt: 1, output: "ok" } },
          ]);
          write({ seq: 3, ...bad.row });
          const fresh = await log.page({ after: 0, limit: 2 });
          return {
            all: await rejection(() => log.all()),
            page: await rejection(() => log.page({ after: 1, limit: 10 })),
            typed: await rejection(() => log.page({ after: 0, limit: 10, types: [bad.row.type, "Run*"] })),
            before: fresh.map((e) => e.seq),
          };
        });
        const expected = { code: "event_log_corrupt", runId, seq: 3, message: expect.stringMatching(bad.problem) };
        expect(seen.all).toEqual(expected);
        expect(seen.page).toEqual(expected);
        expect(seen.typed).toEqual(expected);
        expect(seen.before).toEqual([1, 2]);
      });
    }

    it("a field the schema does not know is no corruption: the row reads back exactly as stored", async () => {
      const payload = { stepPath: "a", attempt: 2, deadline: 5, addedLater: { by: "a newer writer" } };
      const events = await withRawLog(runIdFor("extra"), async (log, write) => {
        write({ seq: 1, type: "StepStarted", at: AT, payload: JSON.stringify(payload) });
        return log.all();
      });
      expect(events.map((e) => [e.seq, e.type, e.at, e.payload])).toEqual([[1, "StepStarted", AT, payload]]);
    });

    it("a corrupt first row fails the read of a run's first event (how the API finds a run)", async () => {
      const runId = runIdFor("first");
      const seen = await withRawLog(runId, async (log, write) => {
        write({ seq: 1, type: "RunRequested", at: AT, payload: '{"workflowId":"w","tenant":"t"}' });
        return rejection(() => log.page({ after: 0, limit: 1 }));
      });
      expect(seen).toEqual({
        code: "event_log_corrupt",
        runId,
        seq: 1,
        message: expect.stringMatching(/RunRequested payload does not match its schema: input/),
      });
    });
  });
}
