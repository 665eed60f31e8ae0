import { LittleError } from "../../sdk/errors/little-error.ts";

/** Which Sandbox adapter the Worker uses (`LITTLE_SANDBOX`): `isolate` unless set. */
export type SandboxKind = "isolate" | "container";

/**
 * Reads `LITTLE_SANDBOX`: unset or empty means `isolate` (the embedded sandbox that runs
 * anywhere); `container` needs the `SANDBOX` container binding. Anything else is a deployment
 * mistake, refused by name rather than guessed at: a typo must not silently pick an adapter.
 *
 * @example
 * parseSandboxKind(undefined) // "isolate"
 * parseSandboxKind("containr") // throws SandboxConfigurationError (code "sandbox_config_invalid")
 */
export function parseSandboxKind(value: string | undefined): SandboxKind {
  if (value === undefined || value === "" || value === "isolate") return "isolate";
  if (value === "container") return "container";
  throw new SandboxConfigurationError(value);
}

/** `LITTLE_SANDBOX` holds a value that names no sandbox adapter. */
export class SandboxConfigurationError extends LittleError {
  readonly code = "sandbox_config_invalid";
  readonly value: string;
  constructor(value: string) {
    super(`LITTLE_SANDBOX is ${JSON.stringify(value.slice(0, 100))}; set it to "isolate" (the default) or "container"`);
    this.name = "SandboxConfigurationError";
    this.value = value;
  }
}
