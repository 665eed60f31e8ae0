import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { parseCommand } from "../args.ts";
import { CliInputError } from "../cli-error.ts";
import type { SandboxChoice } from "../deploy/deploy-config.ts";
import { projectProviderKeys } from "../deploy/project-provider-keys.ts";
import { runDeploy } from "../deploy/run-deploy.ts";
import { print } from "../output.ts";
import { runProcess } from "../run-process.ts";
import { DEPLOY_USAGE } from "../usage.ts";

/**
 * `little deploy [--sandbox container|isolate] [--dry-run] [--secret NAME]… [--url URL]`: deploys the
 * Worker project in the current directory, then (container sandbox) smoke-checks the deployed
 * sandbox at URL, or at the workers.dev URL wrangler printed (docs/deploy.md).
 *
 * @example
 * little deploy --sandbox isolate --secret OPENAI_API_KEY --dry-run
 */
export async function deployCommand(args: readonly string[]): Promise<number> {
  const { values } = parseCommand(
    "deploy",
    args,
    {
      sandbox: { type: "string" },
      "dry-run": { type: "boolean" },
      secret: { type: "string", multiple: true },
      config: { type: "string", short: "c" },
      url: { type: "string" },
    },
    { min: 0, max: 0, names: "" },
  );
  if (values.help) {
    print(`usage: little ${DEPLOY_USAGE}`);
    return 0;
  }
  const sandbox = values.sandbox ?? "container";
  if (sandbox !== "container" && sandbox !== "isolate") {
    throw new CliInputError("usage", `little deploy: --sandbox must be container or isolate, not "${sandbox}"`);
  }
  const config = values.config ?? ["wrangler.jsonc", "wrangler.json"].find((f) => existsSync(f));
  if (!config || !existsSync(config)) {
    throw new CliInputError(
      "deploy_config_invalid",
      `little deploy: ${config ?? "wrangler.jsonc"} not found; run it in the project directory (a wrangler.toml is not read: see docs/deploy.md)`,
    );
  }
  if (config.endsWith(".toml"))
    throw new CliInputError("deploy_config_invalid", "little deploy: reads wrangler.jsonc or wrangler.json, not TOML");
  // The keys passed as --secret, then those of the providers the project's own models come from.
  const manifest = join(dirname(config), "package.json");
  const secrets = [
    ...((values.secret as unknown as string[] | undefined) ?? []),
    ...projectProviderKeys(existsSync(manifest) ? readFileSync(manifest, "utf8") : undefined),
  ];
  const steps = await runDeploy(
    {
      config,
      output: join(dirname(config), "wrangler.deploy.json"),
      sandbox: sandbox as SandboxChoice,
      dryRun: values["dry-run"] === true,
      secrets,
      ...(values.url ? { url: values.url } : {}),
    },
    {
      run: runProcess,
      readText: (path) => readFileSync(path, "utf8"),
      writeText: (path, text) => writeFileSync(path, text),
      log: values.json ? () => {} : (line) => print(line),
    },
  );
  if (values.json) print(JSON.stringify({ sandbox, dryRun: values["dry-run"] === true, steps }, null, 2));
  return 0;
}
