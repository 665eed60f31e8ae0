import { LittleError } from "./little-error.ts";

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
