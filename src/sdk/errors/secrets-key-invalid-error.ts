import { LittleError } from "./little-error.ts";

/** The configured key is not 32 bytes of base64. */
export class SecretsKeyInvalidError extends LittleError {
  readonly code = "secrets_key_invalid";
  constructor() {
    super("LITTLE_SECRETS_KEY must be 32 bytes, base64-encoded (openssl rand -base64 32)");
    this.name = "SecretsKeyInvalidError";
  }
}
