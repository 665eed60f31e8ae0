import { CliInputError } from "../cli-error.ts";
import {
  deployConfig,
  mainDatabase,
  queueNames,
  requiredSecrets,
  type SandboxChoice,
  type WranglerConfig,
  withDatabaseId,
} from "./deploy-config.ts";
import { parseJsonc } from "./jsonc.ts";
import { deployedUrl, smokeCheck } from "./sandbox-smoke-check.ts";

/** One command's result; `inherit` hands the terminal to it (migrations and deploy print progress). */
export type CommandResult = { code: number; stdout: string; stderr: string };
/** `tee` prints the output as it comes and captures it too (wrangler deploy: its progress, then its URL). */
export type Runner = (command: string, args: readonly string[], mode: "capture" | "inherit" | "tee") => Promise<CommandResult>;

/** What the deploy touches outside itself: injected, so tests drive it with a fake account. */
export type DeployIO = {
  readonly run: Runner;
  readonly readText: (path: string) => string;
  readonly writeText: (path: string, text: string) => void;
  readonly log: (line: string) => void;
  /** For the container sandbox's smoke check through the deployed Worker (global fetch unless given). */
  readonly fetch?: typeof fetch;
  readonly sleep?: (ms: number) => Promise<void>;
};

export type DeployOptions = {
  /** The base config (what `wrangler dev` uses): wrangler.jsonc or wrangler.json. */
  readonly config: string;
  /** Where the generated deploy config goes (beside the base, so its relative paths hold). */
  readonly output: string;
  readonly sandbox: SandboxChoice;
  readonly dryRun: boolean;
  /** Secrets the Worker needs beyond the base two and the overrides' provider keys. */
  readonly secrets: readonly string[];
  /** The deployed Worker's URL for the smoke check; otherwise read from `wrangler deploy`'s output. */
  readonly url?: string;
};

/** What happened (or, in a dry run, would), step by step. */
export type DeployStep = { step: string; outcome: string; command?: string };

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

/**
 * `little deploy`: checks the secrets, creates or finds the D1 database, R2 bucket and queues,
 * writes the database id into the base config, applies the D1 migrations remotely, then
 * `wrangler deploy` with a config holding only the chosen sandbox's bindings. A dry run asks
 * the account nothing and runs `wrangler deploy --dry-run`.
 */
export async function runDeploy(options: DeployOptions, io: DeployIO): Promise<DeployStep[]> {
  const steps: DeployStep[] = [];
  const note = (step: DeployStep) => {
    steps.push(step);
    io.log(`${step.step}: ${step.outcome}${step.command ? `\n    $ ${step.command}` : ""}`);
  };
  const wrangler = async (args: readonly string[], mode: "capture" | "inherit" | "tee" = "capture") => io.run("wrangler", args, mode);
  const baseText = io.readText(options.config);
  const base = parseJsonc(baseText, options.config) as WranglerConfig;
  const config = deployConfig(base, options.sandbox);
  note({
    step: "sandbox",
    outcome:
      options.sandbox === "container"
        ? "container (bash and code.run in a Cloudflare Container; the account needs Containers, and building the image needs Docker here)"
        : "isolate (Worker Loader isolates; the account needs Worker Loader; no Docker)",
  });
  // wrangler builds the container image even for `deploy --dry-run`, so a dry run needs Docker too.
  if (options.sandbox === "container") {
    const docker = await io.run("docker", ["info"], "capture").catch(() => ({ code: 1, stdout: "", stderr: "" }));
    if (docker.code !== 0) {
      throw new CliInputError(
        "deploy_docker_missing",
        "little deploy: --sandbox container builds the sandbox image with Docker, which is not running here; start Docker, or deploy with --sandbox isolate",
      );
    }
  }
  const deployArgs = ["-c", options.output];
  await checkSecrets(config, options, wrangler, note);

  const db = mainDatabase(config);
  const id = await database(db.database_name as string, options.dryRun, wrangler, note);
  if (id !== undefined && id !== db.database_id) {
    db.database_id = id;
    io.writeText(options.config, withDatabaseId(baseText, id));
    note({ step: "config", outcome: `wrote database_id ${id} into ${options.config}` });
  }
  const bucket = config.r2_buckets?.find((b) => b.binding === "BLOBS")?.bucket_name as string;
  await ensureListed("R2 bucket", bucket, ["r2", "bucket", "list"], ["r2", "bucket", "create", bucket], options.dryRun, wrangler, note);
  for (const queue of queueNames(config)) {
    await ensureListed("queue", queue, ["queues", "list"], ["queues", "create", queue], options.dryRun, wrangler, note);
  }
  io.writeText(options.output, `${JSON.stringify(config, null, 2)}\n`);
  note({ step: "config", outcome: `wrote ${options.output} (${options.sandbox} sandbox bindings only)` });

  const migrate = ["d1", "migrations", "apply", db.database_name as string, "--remote", ...deployArgs];
  if (options.dryRun)
    note({ step: "migrations", outcome: "would apply the D1 migrations remotely", command: `wrangler ${migrate.join(" ")}` });
  else {
    const applied = await wrangler(migrate, "inherit");
    if (applied.code !== 0)
      throw new CliInputError("deploy_step_failed", "little deploy: applying the D1 migrations remotely failed (see above)");
    note({ step: "migrations", outcome: "applied remotely" });
  }
  const deploy = ["deploy", ...deployArgs, ...(options.dryRun ? ["--dry-run"] : [])];
  const deployed = await wrangler(deploy, "tee");
  if (deployed.code !== 0) throw new CliInputError("deploy_step_failed", `little deploy: wrangler ${deploy.join(" ")} failed (see above)`);
  note({
    step: "deploy",
    outcome: options.dryRun ? "dry run: bundled, nothing uploaded" : "deployed",
    command: `wrangler ${deploy.join(" ")}`,
  });
  if (options.sandbox === "container" && !options.dryRun) await checkDeployedSandbox(options.url ?? deployedUrl(deployed.stdout), io, note);
  return steps;
}

/**
 * The container sandbox's smoke check through the deployed Worker (a bash command and a code.run,
 * `GET /v1/health/sandbox`): a runtime where the sandbox cannot run commands fails the deploy
 * loudly, with the remedy, instead of failing every run later (docs/sandbox.md, "Network namespaces").
 */
async function checkDeployedSandbox(url: string | undefined, io: DeployIO, note: Note): Promise<void> {
  if (!url) {
    note({ step: "smoke check", outcome: "skipped: no workers.dev URL in wrangler's output; run it with --url <the Worker's URL>" });
    return;
  }
  const report = await smokeCheck(url, { fetch: io.fetch ?? fetch, ...(io.sleep ? { sleep: io.sleep } : {}) });
  if (!report.ok)
    throw new CliInputError(
      "code_runner_unavailable",
      `little deploy: deployed, but the container sandbox cannot run commands (code_runner_unavailable): ${report.message}\n  remedy: ${report.remedy}`,
    );
  note({ step: "smoke check", outcome: `bash ${report.bashMs} ms and code.run ${report.codeRunMs} ms in the container sandbox (${url})` });
}

type Wrangler = (args: readonly string[], mode?: "capture" | "inherit") => Promise<CommandResult>;
type Note = (step: DeployStep) => void;

async function checkSecrets(config: WranglerConfig, options: DeployOptions, wrangler: Wrangler, note: Note) {
  const required = requiredSecrets(config, options.secrets);
  const list = ["secret", "list", "--format", "json", "--name", config.name as string];
  if (options.dryRun) {
    note({ step: "secrets", outcome: `would check ${required.join(", ")}`, command: `wrangler ${list.join(" ")}` });
    return;
  }
  const listed = await wrangler(list);
  let present: string[] = [];
  if (listed.code === 0) present = secretNames(listed.stdout);
  else if (!/does not exist|not found|10007/i.test(listed.stderr + listed.stdout)) {
    throw new CliInputError(
      "deploy_step_failed",
      `little deploy: wrangler secret list failed: ${firstLine(listed.stderr || listed.stdout)}`,
    );
  }
  const missing = required.filter((name) => !present.includes(name));
  if (missing.length > 0) {
    throw new CliInputError(
      "deploy_secrets_missing",
      `little deploy: the Worker ${config.name} is missing the secret${missing.length > 1 ? "s" : ""} ${missing.join(", ")}; set each with: npx wrangler secret put <NAME> --name ${config.name}`,
    );
  }
  note({ step: "secrets", outcome: `present: ${required.join(", ")}` });
}

function secretNames(stdout: string): string[] {
  try {
    const parsed: unknown = JSON.parse(stdout.slice(stdout.indexOf("[")));
    return Array.isArray(parsed) ? parsed.flatMap((s) => (typeof s?.name === "string" ? [s.name as string] : [])) : [];
  } catch {
    return [];
  }
}

/** The database's id: found by name in `d1 list --json`, else created. Undefined in a dry run when unknown. */
async function database(name: string, dryRun: boolean, wrangler: Wrangler, note: Note): Promise<string | undefined> {
  if (dryRun) {
    note({ step: "D1 database", outcome: `would look up ${name} (and create it when absent)`, command: "wrangler d1 list --json" });
    return undefined;
  }
  const find = async () => {
    const listed = await wrangler(["d1", "list", "--json"]);
    if (listed.code !== 0)
      throw new CliInputError("deploy_step_failed", `little deploy: wrangler d1 list failed: ${firstLine(listed.stderr)}`);
    const rows = JSON.parse(listed.stdout.slice(listed.stdout.indexOf("["))) as { name?: string; uuid?: string }[];
    return rows.find((row) => row.name === name)?.uuid;
  };
  const found = await find();
  if (found) {
    note({ step: "D1 database", outcome: `${name} exists (${found})` });
    return found;
  }
  const created = await wrangler(["d1", "create", name]);
  if (created.code !== 0)
    throw new CliInputError("deploy_step_failed", `little deploy: wrangler d1 create ${name} failed: ${firstLine(created.stderr)}`);
  const id = created.stdout.match(UUID)?.[0] ?? (await find());
  if (!id) throw new CliInputError("deploy_step_failed", `little deploy: created ${name} but could not read its id`);
  note({ step: "D1 database", outcome: `created ${name} (${id})` });
  return id;
}

/** A named resource that a `list` shows as a whole word, else `create`d. */
async function ensureListed(
  kind: string,
  name: string,
  list: string[],
  create: string[],
  dryRun: boolean,
  wrangler: Wrangler,
  note: Note,
): Promise<void> {
  if (dryRun) {
    note({ step: kind, outcome: `would look up ${name} (and create it when absent)`, command: `wrangler ${list.join(" ")}` });
    return;
  }
  const listed = await wrangler(list);
  if (listed.code !== 0)
    throw new CliInputError("deploy_step_failed", `little deploy: wrangler ${list.join(" ")} failed: ${firstLine(listed.stderr)}`);
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  if (new RegExp(`(^|[\\s│|:])${escaped}($|[\\s│|])`, "m").test(listed.stdout)) {
    note({ step: kind, outcome: `${name} exists` });
    return;
  }
  const created = await wrangler(create);
  if (created.code !== 0)
    throw new CliInputError("deploy_step_failed", `little deploy: wrangler ${create.join(" ")} failed: ${firstLine(created.stderr)}`);
  note({ step: kind, outcome: `created ${name}` });
}

function firstLine(text: string): string {
  return text.trim().split("\n")[0] ?? "";
}
