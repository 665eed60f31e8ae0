import { LittleError } from "./little-error.ts";

/**
 * A provider (or a proxy in front of it) answered in a form the call did not ask for: a streamed
 * request (`stream: true`) answered with a plain JSON body instead of server-sent events, which
 * would otherwise read as an empty answer. Retried like a 5xx (a proxy may recover); once the
 * attempts are spent the run fails with cause `model_protocol_error` (docs/models.md).
 */
export class ModelProtocolError extends LittleError {
  readonly code = "model_protocol_error";
  constructor(detail: string) {
    super(`The model provider's answer broke the protocol: ${detail}`);
    this.name = "ModelProtocolError";
  }
}
