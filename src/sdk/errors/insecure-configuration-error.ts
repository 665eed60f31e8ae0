import { LittleError } from "./little-error.ts";

/**
 * 503 `insecure_configuration`: a deployed Worker holds well-known example values (the dev tokens,
 * the example webhook secret or secrets key) in the variables named; it refuses every request and
 * every start until they are replaced.
 */
export class InsecureConfigurationError extends LittleError {
  readonly code = "insecure_configuration";
  readonly variables: readonly string[];
  constructor(variables: readonly string[]) {
    super(
      `This Worker is deployed with well-known example values in ${variables.join(", ")}; it refuses every request until they are replaced. ` +
        `Set your own with \`wrangler secret put ${variables[0] ?? "<NAME>"}\` (or remove the variable). ` +
        "For local development, set LITTLE_ENV=development.",
    );
    this.name = "InsecureConfigurationError";
    this.variables = variables;
  }
}
