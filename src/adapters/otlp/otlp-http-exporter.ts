/**
 * @module The OTLP/HTTP span exporter (docs/observability.md): encodes {@link TraceSpan}s with
 * the OpenTelemetry JS transformer (`@opentelemetry/otlp-transformer`, protobuf or JSON, as the
 * OTLP specification defines them) and POSTs them to the collector. It only reports what
 * happened; retries, the bounded buffer and dropped-span counts are the run tracer's.
 */
import { JsonTraceSerializer, ProtobufTraceSerializer } from "@opentelemetry/otlp-transformer";
import type { SpanExporter, SpanExportResult, TraceSpan } from "../../ports/span-exporter.ts";

export type OtlpProtocol = "http/protobuf" | "http/json";

export type OtlpExporterConfig = {
  /** The collector's traces URL (`…/v1/traces`), or its base URL, to which `/v1/traces` is added. */
  readonly endpoint: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly protocol?: OtlpProtocol;
  /** `service.name` of the resource; default `little-workflow`. */
  readonly serviceName?: string;
  /** Per request; default 10 s. */
  readonly timeoutMs?: number;
  readonly fetch?: typeof fetch;
};

const SCOPE = { name: "little-workflow", version: "0.1.0" };
const KIND = { internal: 0, server: 1, client: 2 } as const;
const STATUS = { unset: 0, ok: 1, error: 2 } as const;

function hrTime(ms: number): [number, number] {
  const seconds = Math.floor(ms / 1000);
  return [seconds, Math.round((ms - seconds * 1000) * 1e6)];
}

/** The transformer's input shape (`ReadableSpan` of `@opentelemetry/sdk-trace`), built from a span of the log. */
function readableSpan(span: TraceSpan, resource: object) {
  const context = { traceId: span.traceId, spanId: span.spanId, traceFlags: 1 };
  return {
    name: span.name,
    kind: KIND[span.kind],
    spanContext: () => context,
    ...(span.parentSpanId !== undefined
      ? { parentSpanContext: { traceId: span.traceId, spanId: span.parentSpanId, traceFlags: 1, isRemote: span.parentIsRemote === true } }
      : {}),
    startTime: hrTime(span.startMs),
    endTime: hrTime(span.endMs),
    duration: hrTime(span.endMs - span.startMs),
    status: { code: STATUS[span.status.code], ...(span.status.message !== undefined ? { message: span.status.message } : {}) },
    attributes: span.attributes,
    links: [],
    events: span.events.map((e) => ({ name: e.name, time: hrTime(e.atMs), attributes: e.attributes, droppedAttributesCount: 0 })),
    ended: true,
    resource,
    instrumentationScope: SCOPE,
    droppedAttributesCount: 0,
    droppedEventsCount: 0,
    droppedLinksCount: 0,
  };
}

/** The traces URL for an endpoint: a URL ending in `/v1/traces` as it is, else that path appended. */
export function tracesUrl(endpoint: string): string {
  const trimmed = endpoint.replace(/\/+$/, "");
  return trimmed.endsWith("/v1/traces") ? trimmed : `${trimmed}/v1/traces`;
}

/**
 * Encodes a batch as an OTLP `ExportTraceServiceRequest`.
 *
 * @example
 * encodeSpans(spans, "http/json") // UTF-8 JSON bytes, ids in hex as OTLP/JSON wants them
 */
export function encodeSpans(spans: readonly TraceSpan[], protocol: OtlpProtocol, serviceName = "little-workflow"): Uint8Array {
  const resource = { attributes: { "service.name": serviceName } };
  const readable = spans.map((s) => readableSpan(s, resource)) as unknown as Parameters<typeof JsonTraceSerializer.serializeRequest>[0];
  const bytes =
    protocol === "http/json" ? JsonTraceSerializer.serializeRequest(readable) : ProtobufTraceSerializer.serializeRequest(readable);
  if (!bytes) throw new Error("the OTLP transformer returned no bytes");
  return bytes;
}

export class OtlpHttpSpanExporter implements SpanExporter {
  private readonly url: string;
  private readonly protocol: OtlpProtocol;
  private readonly config: OtlpExporterConfig;

  constructor(config: OtlpExporterConfig) {
    this.config = config;
    this.url = tracesUrl(config.endpoint);
    this.protocol = config.protocol ?? "http/protobuf";
  }

  async export(spans: readonly TraceSpan[]): Promise<SpanExportResult> {
    if (spans.length === 0) return { ok: true };
    const body = encodeSpans(spans, this.protocol, this.config.serviceName);
    const contentType = this.protocol === "http/json" ? "application/json" : "application/x-protobuf";
    try {
      const response = await (this.config.fetch ?? fetch)(this.url, {
        method: "POST",
        headers: { ...this.config.headers, "content-type": contentType },
        body,
        signal: AbortSignal.timeout(this.config.timeoutMs ?? 10_000),
      });
      await response.body?.cancel();
      if (response.ok) return { ok: true };
      // OTLP/HTTP: 429, 502, 503 and 504 are retryable; any other failure status is not.
      const retriable = [429, 502, 503, 504].includes(response.status);
      return { ok: false, retriable, message: `collector answered ${response.status}` };
    } catch (error) {
      return { ok: false, retriable: true, message: error instanceof Error ? error.message : String(error) };
    }
  }
}

/**
 * `LITTLE_OTLP_HEADERS`: `key=value` pairs separated by commas (values URL-encoded), the form of
 * `OTEL_EXPORTER_OTLP_HEADERS`; a JSON object is accepted too.
 */
export function parseOtlpHeaders(text: string | undefined): Record<string, string> {
  if (!text || text.trim() === "") return {};
  const trimmed = text.trim();
  if (trimmed.startsWith("{")) {
    const parsed = JSON.parse(trimmed) as Record<string, unknown>;
    return Object.fromEntries(Object.entries(parsed).map(([k, v]) => [k, String(v)]));
  }
  const out: Record<string, string> = {};
  for (const pair of trimmed.split(",")) {
    const at = pair.indexOf("=");
    if (at <= 0) continue;
    out[decodeURIComponent(pair.slice(0, at).trim())] = decodeURIComponent(pair.slice(at + 1).trim());
  }
  return out;
}

/** `LITTLE_OTLP_PROTOCOL`: `http/protobuf` (default) or `http/json`; null for anything else (the wiring then logs it and exports nothing). */
export function parseOtlpProtocol(text: string | undefined): OtlpProtocol | null {
  if (text === undefined || text === "" || text === "http/protobuf") return "http/protobuf";
  return text === "http/json" ? "http/json" : null;
}
