import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { basename, isAbsolute, join, relative, resolve } from "node:path";
import { parseCommand } from "../args.ts";
import { CliInputError } from "../cli-error.ts";
import { print } from "../output.ts";
import { type PackageManifest, packageManifest } from "../package-root.ts";
import { INIT_USAGE } from "../usage.ts";

/** Files the template names differently because npm pack drops or rewrites them. */
const RENAMED: Readonly<Record<string, string>> = { gitignore: ".gitignore" };
/** The project's dependencies, at the ranges this package itself builds and tests with. */
const DEPENDENCIES = ["@ai-sdk/openai", "zod"] as const;
const DEV_DEPENDENCIES = ["@types/node", "typescript", "vitest", "wrangler"] as const;

export type InitOptions = {
  /** Where the project goes: a new or empty directory. */
  readonly dir: string;
  /** The Worker's name (default: the directory's name, made a valid Worker name). */
  readonly name?: string | undefined;
  /** What package.json depends on for little-workflow: a range, a tarball path, `file:…` (default `^<version>`). */
  readonly packageSpec?: string | undefined;
};

/**
 * `little init <dir>`: scaffolds a Worker project that depends on little-workflow. Refuses a
 * directory that is not empty (`init_target_not_empty`).
 *
 * @example
 * little init my-workflows && cd my-workflows && npm install && npm test && npm run dev
 */
export async function initCommand(args: readonly string[]): Promise<number> {
  const { values, positionals } = parseCommand(
    "init",
    args,
    { package: { type: "string" }, name: { type: "string" } },
    { min: 1, max: 1, names: "the project directory" },
  );
  if (values.help) {
    print(`usage: little ${INIT_USAGE}`);
    return 0;
  }
  const result = initProject({ dir: positionals[0] as string, name: values.name, packageSpec: values.package });
  if (values.json) {
    print(JSON.stringify(result, null, 2));
    return 0;
  }
  const shown = relative(process.cwd(), result.dir) || ".";
  print(`Created ${result.name} in ${shown} (${result.files.length} files).`);
  print(`Dev token (in .dev.vars): ${result.devToken}`);
  print("");
  print("Next:");
  print(`  cd ${shown}`);
  print("  npm install");
  print("  npm test        # the workflow in Node, offline");
  print("  npm run dev     # the Worker on http://localhost:8787");
  print("  npm run deploy -- --sandbox container|isolate --dry-run");
  return 0;
}

export type InitResult = { dir: string; name: string; files: string[]; devToken: string };

/** Writes the project; pure apart from the file system, so tests call it directly. */
export function initProject(options: InitOptions, manifest: PackageManifest = packageManifest()): InitResult {
  const dir = resolve(options.dir);
  if (existsSync(dir)) {
    if (!statSync(dir).isDirectory())
      throw new CliInputError("init_target_not_empty", `little init: ${options.dir} exists and is not a directory`);
    if (readdirSync(dir).length > 0) {
      throw new CliInputError("init_target_not_empty", `little init: ${options.dir} is not empty; choose a new or empty directory`);
    }
  }
  const name = workerName(options.name ?? basename(dir));
  const dependency = dependencySpec(options.packageSpec, manifest.version);
  const template = join(manifest.root, "template");
  if (!existsSync(template)) throw new Error(`little init: the package has no template (${template})`);
  mkdirSync(dir, { recursive: true });
  const files: string[] = [];
  for (const file of listFiles(template)) {
    const target = file
      .split("/")
      .map((part) => RENAMED[part] ?? part)
      .join("/");
    let text = readFileSync(join(template, file), "utf8").replaceAll("{{name}}", name);
    if (target === "package.json") text = projectManifest(text, manifest, dependency);
    mkdirSync(join(dir, target, ".."), { recursive: true });
    writeFileSync(join(dir, target), text);
    files.push(target);
  }
  const devToken = `dev_${randomBytes(16).toString("hex")}`;
  writeFileSync(join(dir, ".dev.vars"), devVars(devToken));
  files.push(".dev.vars");
  return { dir, name, files: files.sort(), devToken };
}

/** A Worker name: lowercase letters, digits and dashes, at most 63, starting with a letter or digit. */
function workerName(raw: string): string {
  const name = raw
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 63)
    .replace(/-+$/, "");
  if (name === "") throw new CliInputError("usage", `little init: "${raw}" gives no Worker name; pass --name <name>`);
  return name;
}

function listFiles(root: string, under = ""): string[] {
  return readdirSync(join(root, under), { withFileTypes: true }).flatMap((entry) => {
    const path = under ? `${under}/${entry.name}` : entry.name;
    return entry.isDirectory() ? listFiles(root, path) : [path];
  });
}

function projectManifest(text: string, manifest: PackageManifest, dependency: string): string {
  const pkg = JSON.parse(text) as Record<string, unknown>;
  const pick = (names: readonly string[], from: Readonly<Record<string, string>>) =>
    Object.fromEntries(names.flatMap((n) => (from[n] ? [[n, from[n]]] : [])));
  pkg.dependencies = { "little-workflow": dependency, ...pick(DEPENDENCIES, manifest.dependencies) };
  pkg.devDependencies = pick(DEV_DEPENDENCIES, manifest.devDependencies);
  // wrangler 4.164 and vitest 5, the project's own tools, need 22.12 or newer.
  pkg.engines = { node: ">=22.12" };
  return `${JSON.stringify(pkg, null, 2)}\n`;
}

/** A local tarball or directory becomes an absolute `file:` spec, so the project installs it from anywhere. */
function dependencySpec(spec: string | undefined, version: string): string {
  if (spec === undefined) return `^${version}`;
  const path = spec.startsWith("file:") ? spec.slice("file:".length) : spec;
  if (/\.(tgz|tar\.gz)$/.test(path) || path.startsWith(".") || isAbsolute(path)) {
    const absolute = resolve(path);
    if (!existsSync(absolute)) throw new CliInputError("usage", `little init: --package ${spec}: no such file or directory`);
    return `file:${absolute}`;
  }
  return spec;
}

/** Local development settings; the keys are generated per project, never shared. */
function devVars(devToken: string): string {
  return `# Local development settings for wrangler dev (npm run dev). Not committed (.gitignore).
# Marks this Worker as local development: a deployed Worker has no LITTLE_ENV.
LITTLE_ENV=development
# auto: real providers when their key is set below, else the deterministic offline model.
LITTLE_MODELS=auto
# OPENAI_API_KEY=sk-...
# The bearer token accepted for the tenant "dev" (local development only).
LITTLE_DEV_TOKEN=${devToken}
# The admin token that may create tenant tokens: npx little token create --tenant <name>
LITTLE_ADMIN_TOKEN=admin_${randomBytes(16).toString("hex")}
# Runs started by cron, queue messages and service bindings belong to "dev", so the dev token reads them.
LITTLE_TRIGGER_TENANT=dev
LITTLE_RPC_TENANT=dev
LITTLE_WEBHOOK_TENANT=dev
# The key of the encrypted secret store (32 bytes, base64). A deploy needs its own:
# openssl rand -base64 32 | npx wrangler secret put LITTLE_SECRETS_KEY
LITTLE_SECRETS_KEY=${randomBytes(32).toString("base64")}
`;
}
