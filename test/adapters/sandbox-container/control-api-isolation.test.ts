import { Bash, InMemoryFs } from "just-bash";
import { describe, expect, it } from "vitest";
import dockerfileText from "../../../sandbox/Dockerfile?raw";
import { HELPER_SH } from "../../../src/adapters/sandbox-container/container-layout.ts";
import {
  HELPER_SH_SOURCE,
  NO_NETWORK_NAMESPACE_EXIT,
  NO_NETWORK_NAMESPACE_MESSAGE,
} from "../../../src/adapters/sandbox-container/helper-scripts.ts";

// Issue 15, item 10: what closes the container's control API to the sandbox user, checked in the
// files that ship (Docker is not available here, so the image itself is never built in tests).
// The behaviour — the sandbox user's bash, daemons and code.run cannot reach a root server on the
// loopback, root can — is tested for real in `control-api.local.ts` (Linux, root).

const dockerfile = dockerfileText as string;
const scriptLines = HELPER_SH_SOURCE.split("\n").filter((line) => !line.trimStart().startsWith("#"));

describe("the sandbox user's own network namespace (issue 15, item 10)", () => {
  it("the image installs what the helper needs and fails the build without it", () => {
    expect(dockerfile).toMatch(/apt-get install -y --no-install-recommends iproute2/);
    expect(dockerfile).toMatch(/unshare --version && ip -V/);
  });

  it("every command the helper runs as the sandbox user goes through unshare --net", () => {
    expect(HELPER_SH_SOURCE).toContain('OWN_NET=(unshare --net -- /bin/sh -c "$NET_UP" own-net)');
    const dropping = scriptLines.filter((line) => line.includes("setpriv"));
    // as_user (read, write, dump), exec and code: the three places privileges are dropped.
    expect(dropping).toHaveLength(3);
    for (const line of dropping) expect(line, line).toMatch(/"\$\{OWN_NET\[@\]\}" setpriv --reuid=\$USER_ID/);
    expect(scriptLines.find((line) => line.startsWith("as_user()"))).toMatch(/^as_user\(\) \{ "\$\{OWN_NET\[@\]\}" setpriv /);
    // Nothing else switches user (no su, sudo, runuser or a second setpriv elsewhere).
    expect(scriptLines.filter((line) => /\b(su|sudo|runuser)\b /.test(line))).toEqual([]);
  });

  it("the helper checks the namespace can be made before any subcommand that runs the user's commands", () => {
    expect(HELPER_SH_SOURCE).toMatch(/case "\$sub" in\n {2}exec\|read\|write\|dump\|code\) require_own_net ;;\nesac/);
    expect(HELPER_SH_SOURCE).toContain(`exit ${NO_NETWORK_NAMESPACE_EXIT}`);
  });

  it("where unshare is missing or refused, the helper runs nothing of the user's and says why (exit 125)", async () => {
    // just-bash has no `unshare`: a stand-in for a runtime that refuses namespaces.
    const fs = new InMemoryFs();
    await fs.writeFile(HELPER_SH, HELPER_SH_SOURCE);
    const bash = new Bash({ fs, cwd: "/" });
    for (const [sub, args] of [
      ["exec", "5 'echo ran > /tmp/ran'"],
      ["read", "/etc/passwd"],
      ["code", "/opt/little/stage/s /tmp/little-code/x 1 1 64 deny deny 100"],
    ] as const) {
      const r = await bash.exec(`bash ${HELPER_SH} ${sub} ${args}`);
      expect(r.exitCode, `${sub}: ${r.stderr}`).toBe(NO_NETWORK_NAMESPACE_EXIT);
      expect(r.stderr).toContain(NO_NETWORK_NAMESPACE_MESSAGE);
    }
    expect(await fs.exists("/tmp/ran")).toBe(false);
  });
});
