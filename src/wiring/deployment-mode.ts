/**
 * Whether this Worker runs for local development. There is no reliable platform signal for
 * "deployed", so it is opt-in: `LITTLE_ENV=development` (set by `npm run dev`, `.dev.vars`, the
 * test configurations and the e2e harness). Anything else, or nothing, is a deployed Worker, so a
 * forgotten setting fails safe: the well-known example values and the shared webhook secret are
 * refused there.
 */
export function isLocalDevelopment(vars: { readonly LITTLE_ENV?: string | undefined }): boolean {
  return vars.LITTLE_ENV === "development";
}
