import { AI_BINDING, type ConfigurableProvider, PROVIDER_REQUIREMENTS } from "../../sdk/model-provider-requirements.ts";
import { CliInputError } from "../cli-error.ts";

/** Where bash and code.run steps run in the deployed Worker. */
export type SandboxChoice = "container" | "isolate";

/** The parts of a wrangler config the deploy reads or rewrites; everything else passes through. */
export type WranglerConfig = {
  name?: string;
  vars?: Record<string, unknown>;
  durable_objects?: { bindings?: { name: string; class_name: string }[] };
  d1_databases?: { binding: string; database_name?: string; database_id?: string; migrations_dir?: string }[];
  r2_buckets?: { binding: string; bucket_name?: string }[];
  worker_loaders?: { binding: string }[];
  containers?: { class_name: string; image: string; max_instances?: number }[];
  queues?: { consumers?: { queue: string; dead_letter_queue?: string }[]; producers?: { binding: string; queue: string }[] };
  [key: string]: unknown;
};

/** The container sandbox's image, shipped in the package (its tag follows @cloudflare/sandbox). */
export const SANDBOX_IMAGE = "./node_modules/little-workflow/sandbox/Dockerfile";
/** What every deployed Little Workflow Worker needs as secrets. */
export const BASE_SECRETS = ["LITTLE_SECRETS_KEY", "LITTLE_ADMIN_TOKEN"] as const;

function invalid(message: string): never {
  throw new CliInputError("deploy_config_invalid", `little deploy: ${message}`);
}

/**
 * The deployed config, made from the project's base config (the one `wrangler dev` uses) for one
 * sandbox: only that sandbox's bindings are in it, so an `isolate` deploy never builds a Docker
 * image and a `container` deploy does not need Worker Loader on the account.
 */
export function deployConfig(base: WranglerConfig, sandbox: SandboxChoice): WranglerConfig {
  if (typeof base.name !== "string" || base.name === "") invalid("the config has no Worker name");
  const db = mainDatabase(base);
  if (!db.database_name) invalid('the D1 binding "DB" has no database_name');
  if (!base.r2_buckets?.some((b) => b.binding === "BLOBS" && b.bucket_name)) invalid('the config has no R2 bucket bound as "BLOBS"');
  if (!base.durable_objects?.bindings?.some((b) => b.name === "RUNS" && b.class_name === "RunObject")) {
    invalid('the config has no Durable Object binding "RUNS" (class RunObject)');
  }
  if (base.vars?.LITTLE_ENV === "development") invalid("vars set LITTLE_ENV=development; keep it in .dev.vars, not in the deployed config");
  const { containers: _containers, worker_loaders: _loaders, dev: _dev, ...rest } = base;
  const bindings = (base.durable_objects?.bindings ?? []).filter((b) => b.class_name !== "SandboxContainer");
  const config: WranglerConfig = { ...rest, vars: { ...base.vars, LITTLE_SANDBOX: sandbox } };
  if (sandbox === "isolate") {
    config.durable_objects = { ...base.durable_objects, bindings };
    config.worker_loaders = base.worker_loaders?.length ? base.worker_loaders : [{ binding: "LOADER" }];
  } else {
    config.durable_objects = { ...base.durable_objects, bindings: [...bindings, { name: "SANDBOX", class_name: "SandboxContainer" }] };
    config.containers = base.containers?.length
      ? base.containers
      : [{ class_name: "SandboxContainer", image: SANDBOX_IMAGE, max_instances: 20 }];
  }
  return config;
}

/** The D1 database bound as DB (the one the wiring reads). */
export function mainDatabase(config: WranglerConfig): NonNullable<WranglerConfig["d1_databases"]>[number] {
  const db = config.d1_databases?.find((d) => d.binding === "DB");
  if (!db) invalid('the config has no D1 database bound as "DB"');
  return db;
}

/** Every queue the Worker consumes or produces to, once. */
export function queueNames(config: WranglerConfig): string[] {
  const q = config.queues;
  const names = [
    ...(q?.consumers ?? []).flatMap((c) => [c.queue, ...(c.dead_letter_queue ? [c.dead_letter_queue] : [])]),
    ...(q?.producers ?? []).map((p) => p.queue),
  ];
  return [...new Set(names)];
}

/**
 * The secrets the deployed Worker needs: the base two, the key of each provider a
 * `LITTLE_MODEL_<SLOT>` var names, and the ones asked for with `--secret` (the providers of the
 * models your code builds, e.g. OPENAI_API_KEY). A name set in `vars` counts as present.
 */
export function requiredSecrets(config: WranglerConfig, extra: readonly string[]): string[] {
  const vars = config.vars ?? {};
  const offline = vars.LITTLE_MODELS === "offline";
  const fromOverrides = Object.entries(vars).flatMap(([name, value]) => {
    if (offline || !name.startsWith("LITTLE_MODEL_") || typeof value !== "string") return [];
    // The provider's requirements but the AI binding, which is a binding, not a secret.
    const provider = value.slice(0, value.indexOf(":"));
    const needs: readonly string[] = Object.hasOwn(PROVIDER_REQUIREMENTS, provider)
      ? PROVIDER_REQUIREMENTS[provider as ConfigurableProvider]
      : [];
    return needs.filter((name) => name !== AI_BINDING);
  });
  return [...new Set([...BASE_SECRETS, ...fromOverrides, ...(offline ? [] : extra)])].filter((name) => !(name in vars));
}

/**
 * The base config's text with the DB database's id replaced, comments and layout kept. Only the
 * first `database_id` after `"binding": "DB"` changes.
 */
export function withDatabaseId(text: string, id: string): string {
  const binding = text.search(/"binding"\s*:\s*"DB"/);
  const entryStart = binding === -1 ? -1 : text.lastIndexOf("{", binding);
  const entryEnd = binding === -1 ? -1 : text.indexOf("}", binding);
  if (entryStart === -1 || entryEnd === -1) invalid('cannot find the "DB" entry to write its database_id');
  const entry = text.slice(entryStart, entryEnd);
  if (!/"database_id"\s*:\s*"[^"]*"/.test(entry)) invalid('the "DB" entry has no "database_id" to write');
  const updated = entry.replace(/("database_id"\s*:\s*")[^"]*(")/, `$1${id}$2`);
  return text.slice(0, entryStart) + updated + text.slice(entryEnd);
}
