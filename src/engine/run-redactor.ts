import { type Redactor, secretRedactor } from "../harness/redact-secrets.ts";
import type { RunEnvironment } from "./run-environment.ts";

/** Rewrites one text so that no secret value the run binds appears in it, in any promised form. */
export type TextRedactor = (text: string) => string;

/**
 * The run's redactor for text written outside a drive slice: the run object's own `RunFailed` and
 * its console lines after a slice threw. Built like the slice's (the secrets the definition binds,
 * revealed for the run's tenant), because a slice that threw took its redactor with it.
 *
 * Returns null when the run binds secrets that cannot be revealed now (no key, the store failing):
 * then nothing can be redacted, and the caller must write no free text from the error at all.
 * A run whose workflow binds no secret (or is no longer registered) gets the identity.
 *
 * @example
 * const redact = await runTextRedactor(wiring, { workflowId, tenant });
 * console.error(redact ? redact(String(error)) : "message withheld");
 */
export async function runTextRedactor(
  deps: Pick<RunEnvironment, "workflows" | "secrets">,
  request: { readonly workflowId: string; readonly tenant: string },
): Promise<TextRedactor | null> {
  const redact = await runRedactor(deps, request);
  if (redact === null) return null;
  return redact ? (text) => redact.value(text) as string : (text) => text;
}

/**
 * The run's redactor of events and values, built outside a slice like the slice's own (a command
 * that records a step's end: answer-waiting-step.ts): undefined when the run binds no secret to
 * redact, null when it binds secrets that cannot be revealed now (then write nothing they could be in).
 */
export async function runRedactor(
  deps: Pick<RunEnvironment, "workflows" | "secrets">,
  request: { readonly workflowId: string; readonly tenant: string },
): Promise<Redactor | undefined | null> {
  const names = deps.workflows.get(request.workflowId)?.definition.secrets ?? [];
  if (names.length === 0) return undefined;
  if (!deps.secrets.keyConfigured) return null;
  try {
    return secretRedactor(await deps.secrets.reveal(request.tenant, names));
  } catch {
    return null;
  }
}

/**
 * An error as one line of text for logs: its name, message and stack, and its causes', each
 * redacted (or withheld when `redact` is null). Only these strings: an SDK error's other fields
 * (request bodies, headers, URLs) can carry what the redactor is not shown, so they are left out.
 */
export function describeError(error: unknown, redact: TextRedactor | null): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current !== undefined && current !== null; depth++) {
    const name = current instanceof Error ? current.name : typeof current;
    const text = current instanceof Error ? (current.stack ?? `${current.name}: ${current.message}`) : String(current);
    parts.push(redact ? redact(text) : `${name} (message withheld: the run's secrets could not be loaded to redact it)`);
    current = current instanceof Error ? current.cause : undefined;
  }
  return parts.join("\ncaused by: ");
}
