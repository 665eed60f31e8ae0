import { LittleError } from "./little-error.ts";

/**
 * A model call that got no answer (no response, or no stream part) within the call timeout
 * (`LITTLE_MODEL_TIMEOUT_MS`). Retried like a 5xx; once the attempts are spent the run fails with
 * cause `model_timeout`.
 */
export class ModelTimeoutError extends LittleError {
  readonly code = "model_timeout";
  readonly timeoutMs: number;
  constructor(timeoutMs: number, detail = "") {
    super(`The model did not answer within ${timeoutMs} ms${detail ? `: ${detail}` : ""}`);
    this.name = "ModelTimeoutError";
    this.timeoutMs = timeoutMs;
  }
}
