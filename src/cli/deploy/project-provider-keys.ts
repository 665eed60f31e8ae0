import { PROVIDER_REQUIREMENTS } from "../../sdk/model-provider-requirements.ts";

/**
 * The provider packages a project's models come from, and the secret each needs: a project that
 * depends on `@ai-sdk/openai` builds `openai(…)` models, which read `OPENAI_API_KEY`. So `little
 * deploy` checks the keys of the project's own models, not only those passed as `--secret`.
 */
const PACKAGE_PROVIDERS = {
  "@ai-sdk/openai": "openai",
  "@ai-sdk/anthropic": "anthropic",
  "@ai-sdk/google": "google",
  "@ai-sdk/gateway": "gateway",
} as const satisfies Readonly<Record<string, keyof typeof PROVIDER_REQUIREMENTS>>;

/** The secrets the providers in a package.json's dependencies need, sorted; none for unreadable text. */
export function projectProviderKeys(packageJson: string | undefined): string[] {
  let pkg: { dependencies?: Record<string, unknown> };
  try {
    pkg = JSON.parse(packageJson ?? "{}") as typeof pkg;
  } catch {
    return [];
  }
  const deps = Object.keys(pkg?.dependencies ?? {});
  const keys = deps.flatMap((name) =>
    Object.hasOwn(PACKAGE_PROVIDERS, name) ? PROVIDER_REQUIREMENTS[PACKAGE_PROVIDERS[name as keyof typeof PACKAGE_PROVIDERS]] : [],
  );
  return [...new Set<string>(keys)].sort();
}
