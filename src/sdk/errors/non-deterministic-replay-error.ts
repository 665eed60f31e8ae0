import { LittleError } from "./little-error.ts";

/**
 * On replay, a model call whose request no longer hashes to the recorded one: the code under
 * replay asked something different, so the recorded answer cannot be reused.
 */
export class NonDeterministicReplayError extends LittleError {
  readonly code = "non_deterministic_replay";
  readonly callId: string;
  constructor(callId: string, recordedHash: string, currentHash: string) {
    super(`Replay diverged at model call ${callId}: recorded request ${recordedHash}, now ${currentHash}`);
    this.name = "NonDeterministicReplayError";
    this.callId = callId;
  }
}
