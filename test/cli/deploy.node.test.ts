/**
 * `little deploy`'s decisions against a fake account: the runner answers wrangler's list, create
 * and secret calls the way wrangler does, and records every call. The real `wrangler deploy
 * --dry-run` of a scaffolded project runs in test/package/adoption.node.test.ts.
 */

import { describe, expect, it } from "vitest";
import { CliInputError } from "../../src/cli/cli-error.ts";
import { deployConfig, requiredSecrets, type WranglerConfig, withDatabaseId } from "../../src/cli/deploy/deploy-config.ts";
import { parseJsonc } from "../../src/cli/deploy/jsonc.ts";
import { projectProviderKeys } from "../../src/cli/deploy/project-provider-keys.ts";
import { type CommandResult, type DeployOptions, runDeploy } from "../../src/cli/deploy/run-deploy.ts";

const PLACEHOLDER = "00000000-0000-4000-8000-000000000000";
const REAL_ID = "4f1c2b3a-5d6e-4f70-8a9b-0c1d2e3f4a5b";

const BASE = `// the base config
{
  "name": "acme",
  "main": "src/index.ts", // the entry
  "durable_objects": { "bindings": [{ "name": "RUNS", "class_name": "RunObject" }] },
  "migrations": [{ "tag": "v1", "new_sqlite_classes": ["RunObject", "SandboxContainer"] }],
  "d1_databases": [
    {
      "binding": "DB",
      "database_name": "acme",
      "database_id": "${PLACEHOLDER}", /* written by little deploy */
      "migrations_dir": "node_modules/little-workflow/migrations",
    },
  ],
  "r2_buckets": [{ "binding": "BLOBS", "bucket_name": "acme-blobs" }],
  "worker_loaders": [{ "binding": "LOADER" }],
  "vars": { "LITTLE_SANDBOX": "isolate", "DOCS": "https://example.com/a//b" },
  "queues": {
    "consumers": [{ "queue": "acme-runs", "dead_letter_queue": "acme-dead-letters" }],
    "producers": [{ "binding": "LITTLE_RUNS_QUEUE", "queue": "acme-runs" }],
  },
}
`;

type Account = {
  databases?: { name: string; uuid: string }[];
  buckets?: string[];
  queues?: string[];
  secrets?: string[] | "no-worker";
  docker?: boolean;
};

/** A fake Cloudflare account behind a fake wrangler; the project's files in a map. */
function fakeWorld(account: Account) {
  const calls: string[] = [];
  const files = new Map<string, string>([["wrangler.jsonc", BASE]]);
  const ok = (stdout: string): CommandResult => ({ code: 0, stdout, stderr: "" });
  const run = async (command: string, args: readonly string[]): Promise<CommandResult> => {
    const line = `${command} ${args.join(" ")}`;
    calls.push(line);
    if (command === "docker") return account.docker ? ok("Server Version: 27") : { code: 1, stdout: "", stderr: "Cannot connect" };
    if (line.startsWith("wrangler secret list")) {
      if (account.secrets === "no-worker")
        return { code: 1, stdout: "", stderr: "✘ [ERROR] This Worker does not exist on your account. [code: 10007]" };
      return ok(JSON.stringify((account.secrets ?? []).map((name) => ({ name, type: "secret_text" }))));
    }
    if (line === "wrangler d1 list --json") return ok(JSON.stringify(account.databases ?? []));
    if (line.startsWith("wrangler d1 create ")) {
      return ok(
        `✅ Successfully created DB '${args[2]}'\n{\n  "d1_databases": [{ "binding": "DB", "database_name": "${args[2]}", "database_id": "${REAL_ID}" }]\n}`,
      );
    }
    if (line === "wrangler r2 bucket list")
      return ok((account.buckets ?? []).map((b) => `name:           ${b}\ncreation_date:  2026-01-01\n`).join("\n"));
    if (line === "wrangler queues list")
      return ok(`┌──┬──┐\n${(account.queues ?? []).map((q) => `│ 1a2b │ ${q} │ 2026 │`).join("\n")}\n└──┘`);
    return ok("");
  };
  const io = {
    run,
    readText: (path: string) => files.get(path) ?? "",
    writeText: (path: string, text: string) => void files.set(path, text),
    log: () => {},
  };
  return { calls, files, io, deployed: () => JSON.parse(files.get("wrangler.deploy.json") ?? "null") as WranglerConfig };
}

const options = (over: Partial<DeployOptions> = {}): DeployOptions => ({
  config: "wrangler.jsonc",
  output: "wrangler.deploy.json",
  sandbox: "isolate",
  dryRun: false,
  secrets: ["OPENAI_API_KEY"],
  ...over,
});

const ALL_SECRETS = ["LITTLE_SECRETS_KEY", "LITTLE_ADMIN_TOKEN", "OPENAI_API_KEY"];

async function refusal(promise: Promise<unknown>): Promise<CliInputError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CliInputError);
  return error as CliInputError;
}

describe("little deploy against a fake account", () => {
  it("names every missing secret and creates nothing", async () => {
    const world = fakeWorld({ secrets: ["LITTLE_SECRETS_KEY"] });
    const error = await refusal(runDeploy(options(), world.io));
    expect(error.code).toBe("deploy_secrets_missing");
    expect(error.message).toContain("LITTLE_ADMIN_TOKEN, OPENAI_API_KEY");
    expect(error.message).not.toContain("LITTLE_SECRETS_KEY,");
    expect(world.calls.filter((c) => c.includes("create") || c.startsWith("wrangler deploy"))).toEqual([]);
  });

  it("a Worker not deployed yet has no secrets: all are named", async () => {
    const world = fakeWorld({ secrets: "no-worker" });
    const error = await refusal(runDeploy(options(), world.io));
    expect(error.message).toContain("LITTLE_SECRETS_KEY, LITTLE_ADMIN_TOKEN, OPENAI_API_KEY");
  });

  it("creates the absent database, bucket and queues, writes the real id into the config (comments kept), migrates remotely, deploys", async () => {
    const world = fakeWorld({ secrets: ALL_SECRETS });
    await runDeploy(options(), world.io);
    expect(world.calls).toContain("wrangler d1 create acme");
    expect(world.calls).toContain("wrangler r2 bucket create acme-blobs");
    expect(world.calls).toContain("wrangler queues create acme-runs");
    expect(world.calls).toContain("wrangler queues create acme-dead-letters");
    const base = world.files.get("wrangler.jsonc") ?? "";
    expect(base).toContain(`"database_id": "${REAL_ID}", /* written by little deploy */`);
    expect(base.replace(REAL_ID, PLACEHOLDER)).toBe(BASE);
    expect(world.deployed().d1_databases?.[0]?.database_id).toBe(REAL_ID);
    const tail = world.calls.slice(-2);
    expect(tail).toEqual(["wrangler d1 migrations apply acme --remote -c wrangler.deploy.json", "wrangler deploy -c wrangler.deploy.json"]);
  });

  it("reuses a database, bucket and queues that exist", async () => {
    const world = fakeWorld({
      secrets: ALL_SECRETS,
      databases: [
        { name: "acme-staging", uuid: "11111111-1111-4111-8111-111111111111" },
        { name: "acme", uuid: REAL_ID },
      ],
      buckets: ["acme-blobs-old", "acme-blobs"],
      queues: ["acme-runs", "acme-dead-letters"],
    });
    await runDeploy(options(), world.io);
    expect(world.calls.filter((c) => c.includes(" create "))).toEqual([]);
    expect(world.deployed().d1_databases?.[0]?.database_id).toBe(REAL_ID);
    expect(world.calls.at(-1)).toBe("wrangler deploy -c wrangler.deploy.json");
  });

  it("a bucket whose name only starts the same is not taken for ours", async () => {
    const world = fakeWorld({ secrets: ALL_SECRETS, buckets: ["acme-blobs-old"] });
    await runDeploy(options(), world.io);
    expect(world.calls).toContain("wrangler r2 bucket create acme-blobs");
  });

  it("isolate: the deployed config has Worker Loader and no container, no SANDBOX binding", async () => {
    const world = fakeWorld({ secrets: ALL_SECRETS });
    await runDeploy(options({ sandbox: "isolate" }), world.io);
    const config = world.deployed();
    expect(config.containers).toBeUndefined();
    expect(config.durable_objects?.bindings?.map((b) => b.name)).toEqual(["RUNS"]);
    expect(config.worker_loaders).toEqual([{ binding: "LOADER" }]);
    expect(config.vars?.LITTLE_SANDBOX).toBe("isolate");
    expect(world.calls.some((c) => c.startsWith("docker"))).toBe(false);
  });

  it("container: the deployed config has the container and SANDBOX, no Worker Loader; Docker is checked first", async () => {
    const world = fakeWorld({ secrets: ALL_SECRETS, docker: true });
    await runDeploy(options({ sandbox: "container" }), world.io);
    const config = world.deployed();
    expect(config.containers).toEqual([
      { class_name: "SandboxContainer", image: "./node_modules/little-workflow/sandbox/Dockerfile", max_instances: 20 },
    ]);
    expect(config.durable_objects?.bindings?.map((b) => b.name)).toEqual(["RUNS", "SANDBOX"]);
    expect(config.worker_loaders).toBeUndefined();
    expect(config.vars?.LITTLE_SANDBOX).toBe("container");
    expect(world.calls[0]).toBe("docker info");
  });

  it("container without Docker stops at once with deploy_docker_missing, before any account call", async () => {
    const world = fakeWorld({ secrets: ALL_SECRETS, docker: false });
    const error = await refusal(runDeploy(options({ sandbox: "container" }), world.io));
    expect(error.code).toBe("deploy_docker_missing");
    expect(error.message).toContain("--sandbox isolate");
    expect(world.calls).toEqual(["docker info"]);
  });

  it("a dry run asks the account nothing, keeps the base config, and runs wrangler deploy --dry-run", async () => {
    const world = fakeWorld({});
    const steps = await runDeploy(options({ dryRun: true }), world.io);
    expect(world.calls).toEqual(["wrangler deploy -c wrangler.deploy.json --dry-run"]);
    expect(world.files.get("wrangler.jsonc")).toBe(BASE);
    expect(steps.map((s) => s.step)).toEqual([
      "sandbox",
      "secrets",
      "D1 database",
      "R2 bucket",
      "queue",
      "queue",
      "config",
      "migrations",
      "deploy",
    ]);
    expect(steps.find((s) => s.step === "migrations")?.command).toBe("wrangler d1 migrations apply acme --remote -c wrangler.deploy.json");
  });
});

describe("the deploy config", () => {
  const base = parseJsonc(BASE) as WranglerConfig;

  it("parses JSONC: comments and trailing commas, a // inside a string kept", () => {
    expect(base.vars?.DOCS).toBe("https://example.com/a//b");
    expect(base.name).toBe("acme");
  });

  it("a `,}` or `/*` inside a string is text; a broken document is deploy_config_invalid with its line", () => {
    expect(parseJsonc('{ "vars": { "A": "x,}", "B": "[1,]", "C": "/* not a comment */" }, }')).toEqual({
      vars: { A: "x,}", B: "[1,]", C: "/* not a comment */" },
    });
    const broken = () => parseJsonc('{\n  "name": "acme"\n  "main": "x.ts"\n}', "wrangler.jsonc");
    expect(broken).toThrow(CliInputError);
    expect(broken).toThrow(/wrangler\.jsonc is not valid JSONC: CommaExpected at line 3/);
  });

  it("each LITTLE_MODEL_<SLOT> override adds its provider's key; offline needs no provider key; a var counts as set", () => {
    const vars = { LITTLE_MODEL_GPT_5: "anthropic:claude-sonnet-4-5", LITTLE_MODEL_FAST: "workers-ai:@cf/meta/llama" };
    expect(requiredSecrets({ ...base, vars }, ["OPENAI_API_KEY"])).toEqual([
      "LITTLE_SECRETS_KEY",
      "LITTLE_ADMIN_TOKEN",
      "ANTHROPIC_API_KEY",
      "OPENAI_API_KEY",
    ]);
    expect(requiredSecrets({ ...base, vars: { ...vars, LITTLE_MODELS: "offline" } }, ["OPENAI_API_KEY"])).toEqual([
      "LITTLE_SECRETS_KEY",
      "LITTLE_ADMIN_TOKEN",
    ]);
    expect(requiredSecrets({ ...base, vars: { LITTLE_ADMIN_TOKEN: "x" } }, [])).toEqual(["LITTLE_SECRETS_KEY"]);
    // An OpenAI-compatible endpoint needs its base URL (as a secret, or a var), the same table the resolver checks.
    const compatible = { LITTLE_MODEL_FAST: "openai-compatible:llama-3" };
    expect(requiredSecrets({ ...base, vars: compatible }, [])).toContain("OPENAI_COMPATIBLE_BASE_URL");
    expect(requiredSecrets({ ...base, vars: { ...compatible, OPENAI_COMPATIBLE_BASE_URL: "https://llm.example/v1" } }, [])).toEqual([
      "LITTLE_SECRETS_KEY",
      "LITTLE_ADMIN_TOKEN",
    ]);
    // An unknown provider asks for nothing here (the Worker refuses it at startup, docs/models.md).
    expect(requiredSecrets({ ...base, vars: { LITTLE_MODEL_X: "toString:m" } }, [])).toEqual(["LITTLE_SECRETS_KEY", "LITTLE_ADMIN_TOKEN"]);
  });

  it("refuses a config without the bindings the Worker reads, or one that marks itself development", () => {
    const code = (config: WranglerConfig) => {
      try {
        deployConfig(config, "isolate");
        return "accepted";
      } catch (error) {
        return (error as CliInputError).code;
      }
    };
    expect(code({ ...base, d1_databases: [] })).toBe("deploy_config_invalid");
    expect(code({ ...base, r2_buckets: [] })).toBe("deploy_config_invalid");
    expect(code({ ...base, vars: { LITTLE_ENV: "development" } })).toBe("deploy_config_invalid");
    expect(code(base)).toBe("accepted");
  });

  it("writes the id into the DB entry only", () => {
    const two = `{"d1_databases":[{"binding":"OTHER","database_id":"a"},{"binding":"DB","database_id":"b"}]}`;
    expect(withDatabaseId(two, "c")).toBe(`{"d1_databases":[{"binding":"OTHER","database_id":"a"},{"binding":"DB","database_id":"c"}]}`);
  });
});

describe("the project's own provider keys", () => {
  it("come from the provider packages in its package.json, so a plain little deploy checks OPENAI_API_KEY for openai(…) models", () => {
    const pkg = JSON.stringify({
      dependencies: { "little-workflow": "^0.1.0", "@ai-sdk/openai": "^4", "@ai-sdk/anthropic": "^4", zod: "^4" },
    });
    expect(projectProviderKeys(pkg)).toEqual(["ANTHROPIC_API_KEY", "OPENAI_API_KEY"]);
    expect(projectProviderKeys(JSON.stringify({ dependencies: { zod: "^4" } }))).toEqual([]);
    expect(projectProviderKeys("not json")).toEqual([]);
    expect(projectProviderKeys(undefined)).toEqual([]);
  });
});

describe("little deploy --sandbox container: the smoke check through the deployed Worker", () => {
  const URL_LINE = "Deployed acme triggers\n  https://acme.team.workers.dev\n";
  /** A world whose `wrangler deploy` prints the Worker's URL and whose Worker answers `report`. */
  function deployedWorld(report: unknown, status: number) {
    const world = fakeWorld({ secrets: ALL_SECRETS, docker: true });
    const asked: string[] = [];
    const io = {
      ...world.io,
      run: async (command: string, args: readonly string[]) =>
        args[0] === "deploy" ? { code: 0, stdout: URL_LINE, stderr: "" } : world.io.run(command, args),
      fetch: (async (url: string) => {
        asked.push(url);
        return Response.json(report, { status });
      }) as unknown as typeof fetch,
      sleep: async () => {},
    };
    return { io, asked };
  }

  it("reports the sandbox's bash and code.run when it runs them", async () => {
    const { io, asked } = deployedWorld({ ok: true, sandbox: "container", bashMs: 40, codeRunMs: 70 }, 200);
    const steps = await runDeploy(options({ sandbox: "container" }), io);
    expect(asked).toEqual(["https://acme.team.workers.dev/v1/health/sandbox"]);
    expect(steps.at(-1)).toMatchObject({ step: "smoke check", outcome: expect.stringContaining("bash 40 ms and code.run 70 ms") });
  });

  it("fails the deploy with code_runner_unavailable and the remedy when the sandbox cannot run commands", async () => {
    const { io } = deployedWorld(
      { ok: false, code: "code_runner_unavailable", message: "bash answered exit 125: little.sh: cannot…", remedy: "deploy with …" },
      503,
    );
    const error = await refusal(runDeploy(options({ sandbox: "container" }), io));
    expect(error.code).toBe("code_runner_unavailable");
    expect(error.message).toMatch(/deployed, but the container sandbox cannot run commands.*exit 125.*\n {2}remedy: deploy with/s);
  });

  it("asks again while the Worker answers no report, then gives up with code_runner_unavailable; --url overrides the printed URL", async () => {
    const { io, asked } = deployedWorld({ error: "starting" }, 502);
    const error = await refusal(runDeploy(options({ sandbox: "container", url: "https://little.example.com/" }), io));
    expect(error.code).toBe("code_runner_unavailable");
    expect(error.message).toContain("no report: HTTP 502");
    expect(asked.length).toBe(12);
    expect(new Set(asked)).toEqual(new Set(["https://little.example.com/v1/health/sandbox"]));
  });
});
