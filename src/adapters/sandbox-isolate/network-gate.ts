import { WorkerEntrypoint } from "cloudflare:workers";

/** Props of a gate: the hosts (optionally `host:port`, or `*.suffix`) code may reach. */
export type NetworkGateProps = { readonly hosts: readonly string[] };

/**
 * The outbound of a code.run isolate whose policy allows network: requests to the allowed hosts go
 * out, anything else is answered 403 without leaving the Worker. Exported from the Worker entry so
 * the sandbox can hand it to an isolate as `globalOutbound` with per-run props.
 */
export class NetworkGate extends WorkerEntrypoint<Env, NetworkGateProps> {
  override async fetch(request: Request): Promise<Response> {
    const url = new URL(request.url);
    if (!hostAllowed(url, this.ctx.props.hosts)) {
      return new Response(`little sandbox: ${url.host} is not in this workflow's network allowlist`, { status: 403 });
    }
    return fetch(request);
  }

  /**
   * Raw sockets (`connect()` from `cloudflare:sockets`) never leave: only HTTP to allowed hosts
   * does. Without this handler workerd throws an uncaught TypeError in the Worker itself.
   */
  override connect(socket: Socket): void {
    socket.close().catch(() => undefined);
  }
}

/** Whether a URL's host is in an allowlist of `host`, `host:port` and `*.suffix` entries. */
export function hostAllowed(url: URL, hosts: readonly string[]): boolean {
  const host = url.hostname.toLowerCase();
  return hosts.some((entry) => {
    const e = entry.toLowerCase();
    if (e.startsWith("*.")) return host.endsWith(e.slice(1));
    return e.includes(":") ? e === url.host.toLowerCase() : e === host;
  });
}
