/**
 * @module The span exporter from the Worker's vars and secrets (docs/observability.md):
 * `LITTLE_OTLP_ENDPOINT` (unset: null, and no tracing work at all), `LITTLE_OTLP_HEADERS` (a
 * secret: `key=value,…`), `LITTLE_OTLP_PROTOCOL` (`http/protobuf` default, or `http/json`),
 * `LITTLE_OTLP_SERVICE_NAME` (default `little-workflow`).
 */
import { OtlpHttpSpanExporter, parseOtlpHeaders, parseOtlpProtocol } from "../adapters/otlp/otlp-http-exporter.ts";
import type { SpanExporter } from "../ports/span-exporter.ts";

export function spanExporterFromVars(vars: Readonly<Record<string, unknown>>): SpanExporter | null {
  const text = (name: string) => (typeof vars[name] === "string" && vars[name] !== "" ? (vars[name] as string) : undefined);
  const endpoint = text("LITTLE_OTLP_ENDPOINT");
  if (!endpoint) return null;
  const protocol = parseOtlpProtocol(text("LITTLE_OTLP_PROTOCOL"));
  let headers: Record<string, string>;
  try {
    headers = parseOtlpHeaders(text("LITTLE_OTLP_HEADERS"));
  } catch {
    headers = {};
    console.error(JSON.stringify({ level: "error", msg: "LITTLE_OTLP_HEADERS is not key=value pairs nor a JSON object; tracing is off" }));
    return null;
  }
  if (!protocol || !URL.canParse(endpoint)) {
    // A bad telemetry setting must never stop runs: say so once per isolate and export nothing.
    console.error(
      JSON.stringify({
        level: "error",
        msg: "LITTLE_OTLP_ENDPOINT or LITTLE_OTLP_PROTOCOL is invalid; tracing is off",
        protocol: text("LITTLE_OTLP_PROTOCOL"),
      }),
    );
    return null;
  }
  const serviceName = text("LITTLE_OTLP_SERVICE_NAME");
  return new OtlpHttpSpanExporter({ endpoint, headers, protocol, ...(serviceName ? { serviceName } : {}) });
}
