import { type ClientErrorBody, createClient, type LittleClient, LittleClientError } from "../client/index.ts";
import { CliInputError } from "./cli-error.ts";
import { readDevVars } from "./dev-vars.ts";

export { isRecord } from "../client/transport.ts";

/** Where the server is and who we are, from flags first, then the environment. */
export type Connection = { readonly baseUrl: string; readonly token: string | undefined };

export const DEFAULT_URL = "http://localhost:8787";

/**
 * Resolves `--url`, else `LITTLE_URL` from the environment, else from the project's `.dev.vars`
 * (`npm run dev -- --port 8801` with `LITTLE_URL=http://localhost:8801` there), else
 * http://localhost:8787; and `--token`/`LITTLE_TOKEN`. A malformed URL is a usage error (exit 2).
 */
export function connectionFrom(
  flags: { url?: string | undefined; token?: string | undefined },
  env: Readonly<Record<string, string | undefined>> = process.env,
  devVars: Readonly<Record<string, string | undefined>> = readDevVars(),
): Connection {
  const raw = flags.url ?? (env.LITTLE_URL || undefined) ?? (devVars.LITTLE_URL || undefined) ?? DEFAULT_URL;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new CliInputError("invalid_url", `"${raw}" is not a URL; pass --url http://host:port or set LITTLE_URL`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new CliInputError("invalid_url", `"${raw}" is not an http(s) URL; pass --url http://host:port or set LITTLE_URL`);
  }
  url.search = "";
  url.hash = "";
  const token = flags.token ?? (env.LITTLE_TOKEN || undefined);
  return { baseUrl: url.toString().replace(/\/+$/, ""), token };
}

/** The API client (src/client/) for the server and token the flags and environment name. */
export function clientFrom(flags: { url?: string | undefined; token?: string | undefined }): LittleClient {
  const { baseUrl, token } = connectionFrom(flags);
  return createClient({ baseUrl, token });
}

/** A client failure as the CLI prints it (`{"error": …}`); an unreachable server gets the hint where to point. */
export function cliErrorBody(error: LittleClientError): ClientErrorBody {
  if (error.code !== "server_unreachable") return { ...error.body };
  return {
    ...error.body,
    message: `${error.message}; is it running? (a dev server on another port, npm run dev -- --port 8801: pass --url http://localhost:8801, or set LITTLE_URL in the environment or in .dev.vars)`,
  };
}

export { LittleClientError };
