import { CODE_RUNNER_REMEDY, type SandboxCheck } from "../../ports/sandbox-check.ts";

/** The deployed Worker's URL in `wrangler deploy`'s output (its workers.dev or custom route). */
export function deployedUrl(output: string): string | undefined {
  return output.match(/https:\/\/[A-Za-z0-9.-]+\.workers\.dev\b/)?.[0];
}

export type SmokeCheckOptions = {
  readonly fetch: typeof fetch;
  /** A new deploy's first container can take a while to be placed: asked again until then. */
  readonly attempts?: number;
  readonly delayMs?: number;
  readonly sleep?: (ms: number) => Promise<void>;
};

/**
 * Asks a deployed Worker's `GET /v1/health/sandbox` for its sandbox smoke check (a bash command and
 * a code.run, src/ports/sandbox-check.ts) and answers its report; an answer that is no report
 * (not deployed yet, a 5xx page) is asked again, and after the last attempt reported as
 * `code_runner_unavailable` with what came back.
 *
 * @example
 * await smokeCheck("https://little.acme.workers.dev", { fetch }) // { ok: true, bashMs: 48, codeRunMs: 71 }
 */
export async function smokeCheck(url: string, options: SmokeCheckOptions): Promise<SandboxCheck> {
  const attempts = options.attempts ?? 12;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((done) => setTimeout(done, ms)));
  let last = "no answer";
  for (let attempt = 1; attempt <= attempts; attempt++) {
    try {
      const response = await options.fetch(`${url.replace(/\/+$/, "")}/v1/health/sandbox`);
      const body = (await response.json().catch(() => null)) as Partial<SandboxCheck> | null;
      if (body?.ok === true) return body as SandboxCheck;
      // The sandbox answered and cannot run commands: asking again changes nothing.
      if (body?.ok === false && body.code === "code_runner_unavailable") return body as SandboxCheck;
      last = `HTTP ${response.status}`;
    } catch (error) {
      last = error instanceof Error ? error.message : String(error);
    }
    if (attempt < attempts) await sleep(options.delayMs ?? 10_000);
  }
  return { ok: false, code: "code_runner_unavailable", message: `the smoke check got no report: ${last}`, remedy: CODE_RUNNER_REMEDY };
}
