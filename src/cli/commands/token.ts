import { ApiClient, connectionFrom } from "../api-client.ts";
import type { TokenResponse } from "../api-types.ts";
import { nonEmptyFlag, parseCommand } from "../args.ts";
import { CliInputError } from "../cli-error.ts";
import { colorEnabled, keyValues, painter, print } from "../output.ts";
import { TOKEN_USAGE } from "../usage.ts";

/**
 * `little token create --tenant <name>`: mints a tenant API token with the admin token
 * (`--admin-token` or LITTLE_ADMIN_TOKEN). The server shows a token once; so does this.
 */
export async function tokenCommand(args: readonly string[]): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === "--help" || sub === "-h" || sub === "help") {
    print(`usage: little ${TOKEN_USAGE}`);
    return 0;
  }
  if (sub !== "create") {
    throw new CliInputError(
      "usage",
      sub === undefined
        ? 'little token: missing subcommand; use "little token create --tenant <name>"'
        : `little token: unknown subcommand "${sub}"; use "create"`,
    );
  }
  const { values } = parseCommand(
    "token create",
    rest,
    { tenant: { type: "string" }, label: { type: "string" }, "admin-token": { type: "string" } },
    { min: 0, max: 0, names: "" },
  );
  if (values.help) {
    print(`usage: little ${TOKEN_USAGE}`);
    return 0;
  }
  const tenant = nonEmptyFlag("token create", "tenant", values.tenant);
  if (tenant === undefined) throw new CliInputError("usage", "little token create: --tenant is required");
  const label = values.label;
  const adminToken = values["admin-token"] ?? (process.env.LITTLE_ADMIN_TOKEN || undefined);
  if (!adminToken) throw new CliInputError("missing_admin_token", "little token create: pass --admin-token or set LITTLE_ADMIN_TOKEN");
  const client = new ApiClient(connectionFrom(values));
  const { body } = await client.post<TokenResponse>("/v1/tokens", {
    body: { tenant, ...(label !== undefined ? { label } : {}) },
    token: adminToken,
  });
  if (values.json) {
    print(JSON.stringify(body, null, 2));
    return 0;
  }
  const paint = painter(colorEnabled());
  print(
    keyValues(
      [
        ["token", paint("bold", body.token)],
        ["tenant", body.tenant],
        ["label", label],
      ],
      paint,
    ),
  );
  process.stderr.write("This token is shown only once: store it now (e.g. export LITTLE_TOKEN=...).\n");
  return 0;
}
