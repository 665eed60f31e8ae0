import { InsecureConfigurationError } from "../sdk/errors/insecure-configuration-error.ts";
import { isLocalDevelopment } from "./deployment-mode.ts";

/**
 * Values that are public: the ones in `.dev.vars.example`, the test configuration
 * (vitest.config.ts) and the Standard Webhooks specification's example secret. Anyone can read
 * them, so a deployed Worker that holds one is open to everyone.
 */
export const WELL_KNOWN_VALUES: ReadonlySet<string> = new Set([
  // .dev.vars.example
  "dev-token",
  "dev-admin-token",
  "whsec_ZGV2LXdlYmhvb2stc2VjcmV0LWZvci1saXR0bGU=",
  "ZGV2LW9ubHktbGl0dGxlLXNlY3JldHMta2V5LTMyYiE=",
  // vitest.config.ts
  "test-dev-token",
  "test-admin-token",
  "dGVzdC1vbmx5LXNlY3JldHMta2V5LTMyLWJ5dGVzISE=",
  // the Standard Webhooks specification's reference vector (also the tests' webhook secret)
  "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
]);

/** The variables a deployed Worker must never hold a well-known value in. */
export const GUARDED_VARIABLES = ["LITTLE_DEV_TOKEN", "LITTLE_ADMIN_TOKEN", "LITTLE_WEBHOOK_SECRET", "LITTLE_SECRETS_KEY"] as const;

/**
 * Names of the variables among `names` (default: {@link GUARDED_VARIABLES}) that hold a
 * well-known value in a deployed Worker; empty for local development (`LITTLE_ENV=development`).
 */
export function insecureVariables(env: object, names: readonly string[] = GUARDED_VARIABLES): string[] {
  const vars = env as Readonly<Record<string, unknown>>;
  if (isLocalDevelopment(vars as { LITTLE_ENV?: string })) return [];
  return names.filter((name) => {
    const value = vars[name];
    return typeof value === "string" && WELL_KNOWN_VALUES.has(value.trim());
  });
}

/** The refusal for a deployed Worker holding well-known values: 503 `insecure_configuration`, naming them. */
export function insecureConfigurationError(names: readonly string[]): InsecureConfigurationError {
  return new InsecureConfigurationError(names);
}

/** Throws {@link insecureConfigurationError} when any of `names` holds a well-known value in a deployed Worker. */
export function assertSecureConfiguration(env: object, names: readonly string[] = GUARDED_VARIABLES): void {
  const insecure = insecureVariables(env, names);
  if (insecure.length > 0) throw insecureConfigurationError(insecure);
}
