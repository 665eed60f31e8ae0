import { clientFrom } from "../api-client.ts";
import { nonEmptyFlag, parseCommand } from "../args.ts";
import { CliInputError } from "../cli-error.ts";
import { colorEnabled, isoTime, keyValues, painter, print, table } from "../output.ts";
import { TOKEN_USAGE } from "../usage.ts";

/** The scopes the server knows (src/ports/token-store.ts); checked here for a usage error before any request. */
const SCOPES = ["runs:read", "runs:write", "runs:delete", "approve", "admin"] as const;
type Scope = (typeof SCOPES)[number];

const SECONDS_PER_UNIT: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400, w: 604_800 };

/**
 * `little token create|list|revoke`. Creating needs the admin token (`--admin-token` or
 * LITTLE_ADMIN_TOKEN); the server shows a token once, and so does this. Listing and revoking use
 * your own token (`--token`/LITTLE_TOKEN, with the `admin` scope), or the admin token when you name
 * a `--tenant` (list) or pass `--admin-token` (revoke).
 */
export async function tokenCommand(args: readonly string[]): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === "--help" || sub === "-h" || sub === "help") {
    print(`usage: little ${TOKEN_USAGE}`);
    return 0;
  }
  if (sub === "create") return create(rest);
  if (sub === "list") return list(rest);
  if (sub === "revoke") return revoke(rest);
  throw new CliInputError(
    "usage",
    sub === undefined
      ? 'little token: missing subcommand; use "little token create --tenant <name>", "list" or "revoke <id>"'
      : `little token: unknown subcommand "${sub}"; use "create", "list" or "revoke"`,
  );
}

async function create(rest: readonly string[]): Promise<number> {
  const { values } = parseCommand(
    "token create",
    rest,
    {
      tenant: { type: "string" },
      label: { type: "string" },
      scopes: { type: "string" },
      "expires-in": { type: "string" },
      "admin-token": { type: "string" },
    },
    { min: 0, max: 0, names: "" },
  );
  if (values.help) {
    print(`usage: little ${TOKEN_USAGE}`);
    return 0;
  }
  const tenant = nonEmptyFlag("token create", "tenant", values.tenant);
  if (tenant === undefined) throw new CliInputError("usage", "little token create: --tenant is required");
  const label = values.label;
  const scopes = values.scopes === undefined ? undefined : parseScopes(values.scopes);
  const expiresIn = values["expires-in"] === undefined ? undefined : parseDuration(values["expires-in"]);
  const adminToken = requireAdminToken("token create", values["admin-token"]);
  const body = await clientFrom(values).createToken(
    {
      tenant,
      ...(label !== undefined ? { label } : {}),
      ...(scopes !== undefined ? { scopes } : {}),
      ...(expiresIn !== undefined ? { expiresIn } : {}),
    },
    { token: adminToken },
  );
  if (values.json) {
    print(JSON.stringify(body, null, 2));
    return 0;
  }
  const paint = painter(colorEnabled());
  print(
    keyValues(
      [
        ["token", paint("bold", body.token)],
        ["id", body.id],
        ["tenant", body.tenant],
        ["label", label],
        ["scopes", body.scopes?.join(" ")],
        ["expires", body.expiresAt === undefined ? undefined : body.expiresAt === null ? "never" : isoTime(body.expiresAt)],
      ],
      paint,
    ),
  );
  process.stderr.write("This token is shown only once: store it now (e.g. export LITTLE_TOKEN=...).\n");
  return 0;
}

async function list(rest: readonly string[]): Promise<number> {
  const { values } = parseCommand(
    "token list",
    rest,
    { tenant: { type: "string" }, "admin-token": { type: "string" } },
    { min: 0, max: 0, names: "" },
  );
  if (values.help) {
    print(`usage: little ${TOKEN_USAGE}`);
    return 0;
  }
  const tenant = nonEmptyFlag("token list", "tenant", values.tenant);
  // Naming a tenant is the operator's view: that needs the admin token.
  const token = tenant === undefined ? values["admin-token"] : requireAdminToken("token list", values["admin-token"]);
  const body = await clientFrom(values).listTokens({ ...(tenant !== undefined ? { tenant } : {}) }, token === undefined ? {} : { token });
  if (values.json) {
    print(JSON.stringify(body, null, 2));
    return 0;
  }
  const paint = painter(colorEnabled());
  if (body.tokens.length === 0) {
    print("no tokens");
    return 0;
  }
  const now = Date.now();
  print(
    table(
      ["id", "label", "scopes", "created", "expires", "last used"],
      body.tokens.map((t) => [
        t.id,
        t.label ?? "-",
        t.scopes.join(" "),
        isoTime(t.createdAt),
        t.expiresAt === null
          ? "never"
          : t.expiresAt <= now
            ? { text: `expired ${isoTime(t.expiresAt)}`, format: "red" }
            : isoTime(t.expiresAt),
        isoTime(t.lastUsedAt),
      ]),
      paint,
    ),
  );
  return 0;
}

async function revoke(rest: readonly string[]): Promise<number> {
  const { values, positionals } = parseCommand(
    "token revoke",
    rest,
    { "admin-token": { type: "string" } },
    { min: 1, max: 1, names: "<tok_id>" },
  );
  if (values.help) {
    print(`usage: little ${TOKEN_USAGE}`);
    return 0;
  }
  const id = positionals[0] as string;
  if (!/^tok_[0-9a-f]{16}$/.test(id))
    throw new CliInputError("usage", `little token revoke: "${id}" is not a token id (tok_ + 16 hex; see "little token list")`);
  const token = values["admin-token"];
  const body = await clientFrom(values).revokeToken(id, token === undefined ? {} : { token });
  if (values.json) {
    print(JSON.stringify(body, null, 2));
    return 0;
  }
  print(`revoked ${body.id} (${body.tenant}${body.label ? `, ${body.label}` : ""}): it answers 401 token_revoked from now on`);
  return 0;
}

function requireAdminToken(command: string, flag: string | undefined): string {
  const adminToken = flag ?? (process.env.LITTLE_ADMIN_TOKEN || undefined);
  if (!adminToken) throw new CliInputError("missing_admin_token", `little ${command}: pass --admin-token or set LITTLE_ADMIN_TOKEN`);
  return adminToken;
}

/** `runs:read,runs:write` (commas or spaces) → the scopes; an unknown one is a usage error. */
export function parseScopes(text: string): Scope[] {
  const scopes = text.split(/[\s,]+/).filter((s) => s !== "");
  const unknown = scopes.filter((s) => !(SCOPES as readonly string[]).includes(s));
  if (scopes.length === 0 || unknown.length > 0)
    throw new CliInputError(
      "usage",
      `little token create: --scopes takes ${SCOPES.join(", ")} (comma-separated)${unknown.length > 0 ? `; unknown: ${unknown.join(", ")}` : ""}`,
    );
  return [...new Set(scopes)] as Scope[];
}

/**
 * `30d`, `12h`, `90m`, `45s`, `2w` or plain seconds → seconds.
 *
 * @example
 * parseDuration("30d") // 2592000
 */
export function parseDuration(text: string): number {
  const match = /^(\d+)\s*([smhdw]?)$/.exec(text.trim());
  const seconds = match ? Number(match[1]) * (SECONDS_PER_UNIT[match[2] || "s"] ?? 1) : Number.NaN;
  if (!Number.isSafeInteger(seconds) || seconds < 1)
    throw new CliInputError("usage", `little token create: --expires-in takes a duration like 30d, 12h, 90m or seconds; got "${text}"`);
  return seconds;
}
