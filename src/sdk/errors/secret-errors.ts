import { LittleError } from "./little-error.ts";

/** No secrets key is configured (`LITTLE_SECRETS_KEY`): secrets can be neither stored nor revealed. */
export class SecretsKeyMissingError extends LittleError {
  readonly code = "secrets_key_missing";
  constructor() {
    super("No secrets key is configured: set the Worker secret LITTLE_SECRETS_KEY (32 random bytes, base64)");
    this.name = "SecretsKeyMissingError";
  }
}

/** The configured key is not 32 bytes of base64. */
export class SecretsKeyInvalidError extends LittleError {
  readonly code = "secrets_key_invalid";
  constructor() {
    super("LITTLE_SECRETS_KEY must be 32 bytes, base64-encoded (openssl rand -base64 32)");
    this.name = "SecretsKeyInvalidError";
  }
}

/** A run binds secrets the tenant has not set. */
export class SecretMissingError extends LittleError {
  readonly code = "secret_missing";
  readonly names: readonly string[];
  constructor(names: readonly string[]) {
    super(`Secrets not set for this tenant: ${names.join(", ")} (PUT /v1/secrets/<name>)`);
    this.name = "SecretMissingError";
    this.names = names;
  }
}

/** A stored secret does not decrypt with the configured key (rotated key, or tampered row). */
export class SecretUndecryptableError extends LittleError {
  readonly code = "secret_undecryptable";
  constructor(name: string) {
    super(`Secret ${name} does not decrypt with the configured key; set it again`);
    this.name = "SecretUndecryptableError";
  }
}
