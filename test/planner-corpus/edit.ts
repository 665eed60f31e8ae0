import type { Json } from "./plans.ts";

// biome-ignore lint/suspicious/noExplicitAny: drafts are free-form JSON a model wrote
export type Draft = any;

/** A deep copy of `plan` changed by `change` (the model's draft, or its repair of one). */
export function edit(plan: Json, change: (draft: Draft) => void): Draft {
  const copy = JSON.parse(JSON.stringify(plan)) as Draft;
  change(copy);
  return copy;
}

/** Renames a key in place, keeping the key order a model would write. */
export function renameKey(object: Record<string, unknown>, from: string, to: string): void {
  const entries = Object.entries(object).map(([k, v]) => [k === from ? to : k, v] as const);
  for (const k of Object.keys(object)) delete object[k];
  for (const [k, v] of entries) object[k] = v;
}

/** The step with this id. */
export function step(draft: Draft, id: string): Draft {
  const found = (draft.steps as Draft[]).find((s) => s.id === id);
  if (!found) throw new Error(`no step ${id}`);
  return found;
}

/** The digest a file-hash finding names ("set "sha256": "sha256:…"" or "for this content: "sha256:…""). */
export function digestFromFindings(findings: readonly { code: string; path: string; message: string }[], file: string): string {
  const finding = findings.find((f) => f.code.startsWith("code.") && f.path.includes(`files["${file}"].sha256`));
  const digest = finding?.message.match(/sha256:[0-9a-f]{64}(?=")/g)?.at(-1);
  if (!digest) throw new Error(`no finding names the digest of ${file}`);
  return digest;
}
