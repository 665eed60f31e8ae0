/**
 * What to do when the container sandbox refuses to run commands because the runtime will not let
 * root give the sandbox user a network namespace of its own (docs/sandbox.md, "Network
 * namespaces"). Quoted by the helper's refusal, the smoke check and `little deploy`.
 */
export const CODE_RUNNER_REMEDY =
  "deploy with little deploy --sandbox isolate (Worker Loader isolates), or run the container where root may create network namespaces (CAP_SYS_ADMIN); docs/sandbox.md, 'Network namespaces'";

/** The answer of the sandbox smoke check (`checkSandbox` in src/engine/sandbox-check.ts, `GET /v1/health/sandbox`). */
export type SandboxCheck =
  | { readonly ok: true; readonly bashMs: number; readonly codeRunMs: number }
  | { readonly ok: false; readonly code: "code_runner_unavailable"; readonly message: string; readonly remedy: string };
