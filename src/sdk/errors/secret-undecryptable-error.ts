import { LittleError } from "./little-error.ts";

/** A stored secret does not decrypt with the configured key (rotated key, or tampered row). */
export class SecretUndecryptableError extends LittleError {
  readonly code = "secret_undecryptable";
  constructor(name: string) {
    super(`Secret ${name} does not decrypt with the configured key; set it again`);
    this.name = "SecretUndecryptableError";
  }
}
