import { LittleError } from "./little-error.ts";

/** No secrets key is configured (`LITTLE_SECRETS_KEY`): secrets can be neither stored nor revealed. */
export class SecretsKeyMissingError extends LittleError {
  readonly code = "secrets_key_missing";
  constructor() {
    super("No secrets key is configured: set the Worker secret LITTLE_SECRETS_KEY (32 random bytes, base64)");
    this.name = "SecretsKeyMissingError";
  }
}
