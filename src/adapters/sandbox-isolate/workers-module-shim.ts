/** The module user code gets for `cloudflare:workers`; user files may not use the name. */
export const WORKERS_SHIM_MODULE = "__little_workers.js";
/** The function instrumented code passes every dynamic `import()` specifier through. */
export const IMPORT_SPECIFIER = "__little_spec";

/**
 * What `cloudflare:workers` offers user code in a sandbox isolate: everything but the exports that
 * act on the isolate or its entrypoints. `abortIsolate` would end the isolate under the runner
 * (and, were an isolate ever shared, under another call); `exports` / `withExports` reach the
 * runner's own entrypoint, i.e. a second call inside the same isolate. Listed by name, not
 * filtered, so a new export of a later runtime stays out until it is looked at.
 *
 * Instrumentation (loop-guard-instrument.ts) points static imports and re-exports of
 * `cloudflare:workers` here, and passes every dynamic `import()` specifier through
 * {@link IMPORT_SPECIFIER}, which turns the string once into a primitive (no `toString` trick
 * can answer differently later) and maps `cloudflare:workers` to this module. With `fs: "allow"`
 * the intrinsics also wrap `process.getBuiltinModule` (isolate-runner-source.ts).
 */
export const WORKERS_SHIM_SOURCE = `import * as workers from "cloudflare:workers";
export const { DurableObject, RpcPromise, RpcProperty, RpcStub, RpcTarget, ServiceStub, WorkerEntrypoint, WorkflowEntrypoint, cache, env, tracing, waitUntil, withEnv } = workers;
export function ${IMPORT_SPECIFIER}(specifier, shim) {
  const text = typeof specifier === "string" ? specifier : String(specifier);
  return text === "cloudflare:workers" ? shim : text;
}
`;
