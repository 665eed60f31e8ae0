import { OUTPUT_MODES } from "../schema/normalize-output-mode.ts";
import { childPath } from "../sdk/json-path.ts";
import type { FindingSink } from "./findings-sink.ts";
import { fieldNames, OUTPUT_SHAPES } from "./lwir-spec.ts";
import { checkSchemaShape } from "./validate-schema-shape.ts";

const MODES_HINT = `one of ${OUTPUT_MODES.map((m) => `"${m}"`).join(", ")}`;

/** Checks a step's `output` descriptor: a known mode with exactly the fields that mode takes. */
export function checkOutputMode(sink: FindingSink, value: unknown, path: string): void {
  if (typeof value === "string" && (OUTPUT_MODES as readonly string[]).includes(value)) {
    sink.error(
      "field.invalid_type",
      path,
      `${path} must be an object: { "mode": "${value}"${value === "text" ? "" : ", …"} }, not the string "${value}"`,
    );
    return;
  }
  const output = sink.object(value, path);
  if (!output) return;
  const mode = output.mode;
  if (typeof mode !== "string" || !(OUTPUT_MODES as readonly string[]).includes(mode)) {
    const looksLikeSchema = typeof output.type === "string" || output.properties !== undefined;
    const guess = looksLikeSchema
      ? `; this looks like a JSON Schema: wrap it as { "mode": "${output.type === "array" ? "array" : "object"}", "schema": <this schema> }`
      : "";
    sink.error("output.unknown_mode", `${path}.mode`, `${path}.mode must be ${MODES_HINT}${guess}`);
    return;
  }
  const allowed = fieldNames(OUTPUT_SHAPES[mode as keyof typeof OUTPUT_SHAPES]);
  for (const key of Object.keys(output)) {
    if (!allowed.includes(key)) sink.error("output.unexpected_field", childPath(path, key), `output mode "${mode}" does not take "${key}"`);
  }
  if (mode === "choice") {
    const values = output.values;
    if (
      !Array.isArray(values) ||
      values.length === 0 ||
      !values.every((v) => typeof v === "string" && v !== "") ||
      new Set(values).size !== values.length
    ) {
      sink.error("output.invalid_choice", `${path}.values`);
    }
    return;
  }
  if (mode === "text") return;
  if (output.schema === undefined) {
    if (mode !== "json") sink.error("output.schema_required", `${path}.schema`, `output mode "${mode}" needs a schema`);
    return;
  }
  const type = checkSchemaShape(sink, output.schema, `${path}.schema`);
  if ((mode === "object" || mode === "array") && type !== mode && type !== null) {
    sink.error("output.schema_mode_mismatch", `${path}.schema.type`, `output mode "${mode}" needs a schema with type "${mode}"`);
  }
}
