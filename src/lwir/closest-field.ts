/**
 * Names models reach for instead of LWIR's own, mapped to the field they meant. Checked before
 * spelling distance because `kind` → `uses` or `args` → `input` are far apart as strings.
 */
const SYNONYMS: Readonly<Record<string, readonly string[]>> = {
  uses: ["kind", "type", "action", "op", "stepType", "step_type", "run"],
  needs: ["dependsOn", "depends_on", "after", "requires", "deps", "dependencies", "inputs"],
  with: ["params", "parameters", "config", "settings", "options", "args", "arguments"],
  input: ["args", "arguments", "params", "parameters", "payload", "body", "data"],
  tool: ["toolId", "tool_id", "toolName", "tool_name", "name", "function"],
  model: ["modelId", "model_id", "slot", "modelSlot", "model_slot"],
  prompt: ["user", "message", "instructions", "text"],
  system: ["systemPrompt", "system_prompt"],
  output: ["outputs", "returns", "result", "outputMode", "output_mode"],
  mode: ["type", "kind", "format"],
  step: ["then", "target", "goto", "next", "to"],
  when: ["if", "condition", "expr", "expression"],
  default: ["else", "otherwise", "fallback"],
  entrypoint: ["entry", "main", "entryPoint", "entry_point"],
  sha256: ["hash", "digest", "sha", "checksum"],
  content: ["source", "code", "body", "text"],
  forEach: ["for_each", "foreach", "map", "fanOut", "fan_out", "each"],
  items: ["over", "in", "list", "array"],
  maxAttempts: ["attempts", "max_attempts", "retries", "maxRetries"],
  values: ["options", "choices", "enum"],
};

/** The allowed field a misspelled or foreign `key` most likely meant, if any. */
export function closestField(key: string, allowed: readonly string[]): string | undefined {
  for (const candidate of allowed) if (SYNONYMS[candidate]?.includes(key)) return candidate;
  const lower = key.toLowerCase();
  for (const candidate of allowed) if (candidate.toLowerCase() === lower) return candidate;
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(key.length / 3)) + 1;
  for (const candidate of allowed) {
    const d = editDistance(lower, candidate.toLowerCase());
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}

function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 4) return Number.POSITIVE_INFINITY;
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
    }
    previous = current;
  }
  return previous[b.length] ?? Number.POSITIVE_INFINITY;
}
